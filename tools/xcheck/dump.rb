# Per action id, the state after the 18xx.games engine applied it: the cash of every player,
# company and private, each company's trains and share price, each player's shares, the
# phase and where play stands; pairs with dump.py for firstdiff.py.
require_relative 'load_engine'

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

def trains(game)
  (game.corporations + game.minors).to_h { |x| [x.id, x.trains.map(&:name).sort] }
end

def prices(game)
  game.corporations.select(&:share_price).to_h { |x| [x.id, x.share_price.price] }
end

def shares(game)
  game.players.to_h do |p|
    [p.id.to_s, game.corporations.to_h { |x| [x.id, p.percent_of(x)] }.reject { |_, v| v.zero? }]
  end
end

def line(game, id)
  { id: id, cash: snap(game), trains: trains(game), prices: prices(game), shares: shares(game),
    phase: game.phase.name, round: game.round.class.name.split('::').last,
    acting: game.round.active_entities.map(&:id) }
end

puts JSON.generate(line(game, 0))
actions.each do |a|
  game = game.process_action(a)
  if game.exception
    puts JSON.generate({ id: a['id'], error: game.exception.message })
    break
  end
  puts JSON.generate(line(game, a['id']))
end
