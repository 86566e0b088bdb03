# Replays 18xx.games-format game files with the 18xx.games Ruby engine; one JSON line per file:
# {"ok":true,"result":{...},"actions":N,"finished":...} or the first action it rejects.
# Needs XCHECK_18XX_LIB (default /tmp/xcheck/18xx/lib): the lib/ of a tobymao/18xx checkout.
# STRICT=0 replays non-strictly (18xx.games then skips e.g. tile-lay connection checks).
require_relative 'load_engine'

def replay(path, strict)
  data = JSON.parse(File.read(path))
  data['title'] ||= '1858'
  game = Engine::Game.load(data, strict: strict)
  if game.exception
    e = game.exception
    a = game.broken_action
    a = Engine::Action::Base.action_from_h(a, game) if a.is_a?(Hash)
    idx = data['actions'].index { |x| x['id'] == a&.id }
    return { ok: false, index: idx, id: a&.id, type: a&.type, entity: a&.entity&.id,
             error: "#{e.class}: #{e.message}", round: game.round.class.name,
             turn: game.turn_round_num.join('.') }
  end
  { ok: true, result: game.result, actions: data['actions'].size, finished: game.finished,
    game_end_reason: game.game_end_reason }
rescue StandardError => e
  { ok: false, error: "#{e.class}: #{e.message}", backtrace: e.backtrace.first(5) }
end

strict = ENV['STRICT'] != '0'
ARGV.each do |path|
  out = replay(path, strict)
  out[:file] = path
  puts JSON.generate(out)
end
