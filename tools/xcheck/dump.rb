# Per action id, the cash of every player, company and private after the 18xx.games engine
# applied it (and where play stands); pairs with dump.py for firstdiff.py.
$LOAD_PATH.unshift(File.join(__dir__, 'shim'))
$LOAD_PATH.unshift(ENV.fetch('XCHECK_18XX_LIB', '/tmp/xcheck/18xx/lib'))
require 'json'
require 'logger'
require 'engine'
LOGGER.level = Logger::WARN if defined?(LOGGER)

data = JSON.parse(File.read(ARGV[0]))
data['title'] ||= '1858'
actions = data['actions']
game = Engine::Game.load(data, actions: [])

def snap(game)
  c = {}
  game.players.each { |p| c[p.id.to_s] = p.cash }
  game.corporations.each { |x| c[x.id] = x.cash }
  game.minors.each { |x| c[x.id] = x.cash }
  c['bank'] = game.bank.cash
  c
end

puts JSON.generate({ id: 0, cash: snap(game) })
actions.each do |a|
  game = game.process_action(a)
  if game.exception
    puts JSON.generate({ id: a['id'], error: game.exception.message })
    break
  end
  puts JSON.generate({ id: a['id'], cash: snap(game), round: game.round.class.name.split('::').last })
end
