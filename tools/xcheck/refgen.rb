# Random legal games played BY the 18xx.games engine, exported as 18xx.games exports them
# (the reference's own random games, to be replayed blind by Ferrovia):
#
#   ruby tools/xcheck/refgen.rb OUT.json SEED PLAYERS [TITLE]
#
# Each turn it lists the actions the reference's active steps offer the acting entity (and the
# privates it owns, and a president's emergency sales), draws one with weights, and processes
# it; an action the engine refuses is dropped and the game rebuilt from the accepted actions.
# Routes: the reference's own route walk (AutoRouter#path), trains given disjoint routes,
# usually the best.  Needs XCHECK_18XX_LIB (default /tmp/xcheck/18xx/lib), as replay.rb.
require_relative 'load_engine'
# auto_router.rb holds a JavaScript class in %x{} (run by a shell under MRI): silenced while loading
module Kernel
  alias_method :xcheck_backtick, :`
  def `(_cmd) = ''
end
require 'engine/auto_router'
module Kernel
  alias_method :`, :xcheck_backtick
end

OUT, SEED, NPLAYERS = ARGV[0], ARGV[1].to_i, ARGV[2].to_i
TITLE = ARGV[3] || '1830'
MAX_ACTIONS = ENV.fetch('MAX_ACTIONS', '4000').to_i
RNG = Random.new(SEED)

# how much a kind of action is wanted (pass has its own weight per step kind)
WEIGHTS = {
  'bid' => 4, 'par' => 5, 'buy_shares' => 6, 'sell_shares' => 1.5, 'buy_company' => 1.5,
  'lay_tile' => 8, 'place_token' => 6, 'run_routes' => 50, 'dividend' => 50,
  'buy_train' => 6, 'discard_train' => 50, 'bankrupt' => 50, 'pass' => 2
}.freeze

def header
  players = (1..NPLAYERS).map { |i| { 'id' => i, 'name' => "Player #{i}" } }
  { 'id' => SEED, 'description' => 'random play on the 18xx.games engine (tools/xcheck/refgen.rb)',
    'user' => { 'id' => 0, 'name' => 'You' }, 'players' => players,
    'min_players' => NPLAYERS, 'max_players' => NPLAYERS, 'title' => TITLE,
    'settings' => { 'seed' => SEED, 'optional_rules' => [] } }
end

def load(actions)
  Engine::Game.load(header.merge('actions' => actions), strict: true)
end

def pick(list)
  list[RNG.rand(list.size)]
end

# -- candidate actions per type ---------------------------------------------------------------
def step_for(game, entity, type)
  game.round.steps.find do |s|
    next false unless s.active?

    s.actions(entity).include?(type) || s.blocking?
  end.then { |s| s&.actions(entity)&.include?(type) ? s : nil }
end

def bids(game, step, player)
  out = []
  # while bidders fight over the cheapest private only it is offered (the step itself would
  # take a bid on another one then)
  auctioned = nil
  step.send(:active_auction) { |company, _| auctioned = company }
  # an auction step lists its companies; 1858's stock round bids on its auctionable privates
  companies = auctioned ? [auctioned] : step.respond_to?(:companies) ? step.companies : step.send(:auctionable_companies)
  companies.each do |c|
    min = step.min_bid(c)
    max = step.max_bid(player, c)
    next if !min || min > max

    price = [min + (5 * RNG.rand(4) * (RNG.rand < 0.6 ? 0 : 1)), max].min
    out << Engine::Action::Bid.new(player, company: c, price: price)
  end
  out
end

def pars(game, step, player)
  corps =
    if step.is_a?(Engine::Step::CompanyPendingPar)
      company = game.round.companies_pending_par.first
      [game.abilities(company, :shares).shares.first.corporation]
    else
      game.corporations.select { |c| !c.ipoed && step.can_ipo_any?(player) && game.can_par?(c, player) }
    end
  corps.flat_map do |corp|
    prices = step.get_par_prices(player, corp)
    prices = prices.select { |p| p.price * 2 <= player.cash } unless step.is_a?(Engine::Step::CompanyPendingPar)
    prices.empty? ? [] : [Engine::Action::Par.new(player, corporation: corp, share_price: pick(prices))]
  end
end

def share_buys(game, step, entity)
  holder = entity.company? ? entity.owner : entity
  corps = game.corporations.select(&:ipoed)
  if entity.company? # an exchange: what the 18xx.games view offers (its step checks no more than the gain)
    ability = game.abilities(entity, :exchange)
    corps = ability ? game.exchange_corporations(ability) : []
  end
  corps.flat_map do |corp|
    ipo = entity.company? ? corp.available_share : corp.ipo_shares.first
    bundles = [ipo, game.share_pool.shares_by_corporation[corp]&.first].compact.map(&:to_bundle)
    # (1858's exchange step takes only the president's share of a company not yet floated)
    bundles = bundles.reject { |b| !corp.floated? && !b.presidents_share } if entity.company? && TITLE.start_with?('1858')
    bundles.select { |b| entity.company? ? step.can_exchange?(entity, b) : step.can_buy?(holder, b) }.map do |b|
      Engine::Action::BuyShares.new(entity, shares: b.shares, share_price: b.price_per_share, percent: b.percent)
    end
  end
end

def share_sales(game, step, player)
  game.corporations.flat_map do |corp|
    game.bundles_for_corporation(player, corp).select { |b| step.can_sell?(player, b) }.map do |b|
      Engine::Action::SellShares.new(player, shares: b.shares, share_price: b.price_per_share, percent: b.percent)
    end
  end
end

def company_buys(game, step, entity)
  list = step.respond_to?(:purchasable_companies) ? step.purchasable_companies(entity) : game.purchasable_companies(entity)
  cash = entity.cash
  list.filter_map do |c|
    lo = entity.player? ? 1 : c.min_price
    hi = entity.player? ? cash : [c.max_price, cash].min
    next if lo > hi

    Engine::Action::BuyCompany.new(entity, company: c, price: lo + RNG.rand(hi - lo + 1))
  end
end

def tile_lays(game, step, entity)
  corp = entity.company? ? entity.owner : entity
  hexes =
    if entity.company?
      ability = step.abilities(entity)
      ability ? ability.hexes.map { |h| game.hex_by_id(h) } : []
    else
      game.graph_for_entity(corp).connected_hexes(corp).keys
    end
  out = []
  hexes.each do |hex|
    next unless step.available_hex(entity, hex)
    next if hex.tile.upgrades.sum(&:cost) > corp.cash

    step.upgradeable_tiles(entity, hex).each do |tile|
      tile.legal_rotations.each do |r|
        out << Engine::Action::LayTile.new(entity, tile: tile, hex: hex, rotation: r)
      end
    end
  end
  out
end

def token_places(game, step, entity)
  if step.is_a?(Engine::Step::HomeToken)
    pend = step.pending_token
    cities = pend[:hexes].flat_map { |h| h.tile.cities }.select { |c| c.tokenable?(entity, free: true) }
    return cities.map { |c| Engine::Action::PlaceToken.new(entity, city: c, slot: c.get_slot(entity)) }
  end
  corp = entity.company? ? entity.owner : entity
  tokens = step.available_tokens(entity)
  return [] if tokens.empty?

  cities =
    if entity.company?
      game.hex_by_id('F16').tile.cities.select { |c| step.available_hex(entity, c.hex) }
    else
      return [] if tokens.first.price > corp.cash

      game.token_graph_for_entity(corp).connected_nodes(corp).keys.select(&:city?)
    end
  cities.select { |c| c.tokenable?(corp, free: entity.company?, tokens: tokens) }.map do |c|
    Engine::Action::PlaceToken.new(entity, city: c, slot: c.get_slot(corp), token_type: tokens.first.type)
  end
end

def routes_for(game, corp)
  router = Engine::AutoRouter.new(game)
  trains = game.route_trains(corp).sort_by { |t| -t.distance.to_s.to_i }
  return [] if trains.empty?

  by_train, = router.path(trains, corp, path_timeout: 20)
  chosen = []
  trains.each do |train|
    cands = (by_train[train] || []).sort_by { |r| -(r.revenue rescue 0) }
    cands = cands.shuffle(random: RNG) if RNG.rand < 0.15
    cands.each do |route|
      trial = chosen + [route]
      begin
        trial.each { |r| r.routes = trial; r.clear_cache!(only_routes: true) }
        game.routes_revenue(trial)
        trial.each(&:revenue)
        chosen = trial
        break
      rescue Engine::GameError
        next
      end
    end
  end
  chosen.each { |r| r.routes = chosen; r.clear_cache!(only_routes: true) }
  chosen
end

def train_buys(game, step, corp)
  out = []
  step.buyable_trains(corp).each do |train|
    if train.from_depot?
      out << Engine::Action::BuyTrain.new(corp, train: train, price: train.price)
      game.discountable_trains_for(corp).each do |new_train, old_train, _, price|
        next unless new_train == train

        out << Engine::Action::BuyTrain.new(corp, train: train, price: price, exchange: old_train)
      end
    else
      lo, hi = step.spend_minmax(corp, train)
      hi = [hi, corp.cash].min  # the president helps only with a train from the bank
      next if lo > hi

      out << Engine::Action::BuyTrain.new(corp, train: train, price: lo + RNG.rand(hi - lo + 1))
    end
  end
  out
end

def candidates(game, entity, type)
  step = step_for(game, entity, type)
  return [] unless step

  case type
  when 'pass' then [Engine::Action::Pass.new(entity)]
  when 'bid' then bids(game, step, entity)
  when 'par' then pars(game, step, entity)
  when 'buy_shares' then share_buys(game, step, entity)
  when 'sell_shares' then entity.player? ? share_sales(game, step, entity) : []  # 1830: no issues
  when 'buy_company' then company_buys(game, step, entity)
  when 'lay_tile' then tile_lays(game, step, entity)
  when 'place_token' then token_places(game, step, entity)
  when 'run_routes' then [Engine::Action::RunRoutes.new(entity, routes: routes_for(game, entity))]
  when 'dividend' then step.dividend_types.map { |k| Engine::Action::Dividend.new(entity, kind: k.to_s) }
  when 'buy_train' then train_buys(game, step, entity)
  when 'discard_train' then step.trains(entity).map { |t| Engine::Action::DiscardTrain.new(entity, train: t) }
  when 'bankrupt'
    # as the 18xx.games view offers it: a company that must buy a train its president cannot pay
    buy = game.round.active_step
    must = buy.respond_to?(:must_buy_train?) && buy.must_buy_train?(entity)
    must && game.can_go_bankrupt?(entity.owner, entity) ? [Engine::Action::Bankrupt.new(entity)] : []
  else []
  end
end

# -- the acting entities and the draw ---------------------------------------------------------
def actors(game)
  main = game.round.active_entities
  out = main.dup
  step = game.round.active_step
  main.each do |e|
    # a president's sales for a train: only when the company must buy one (the view's emergency)
    emergency = e.corporation? && step.respond_to?(:must_buy_train?) && step.must_buy_train?(e)
    out << e.owner if emergency && e.owner&.player?
    out.concat(e.companies) if e.respond_to?(:companies)
  end
  # a player's private usable at any time (the MH exchange) between others' turns
  game.companies.each { |c| out << c if !c.closed? && c.owner&.player? && RNG.rand < 0.05 }
  out.uniq
end

def choose(game)
  weighted = []
  actors(game).each do |entity|
    game.round.actions_for(entity).uniq.each do |type|
      cands = candidates(game, entity, type)
      next if cands.empty?

      w = WEIGHTS.fetch(type, 1.0)
      w = 6 if type == 'pass' && game.round.stock? && game.turn > 6  # let stock rounds end
      w *= 0.3 if type == 'pass' && (entity.company? || entity.player? && game.round.operating?)
      weighted << [w, type, cands]
    end
  end
  return nil if weighted.empty?

  r = RNG.rand * weighted.sum(&:first)
  weighted.each do |w, _, cands|
    return pick(cands) if (r -= w) <= 0
  end
  pick(weighted.last[2])
end

game = load([])
refused = 0
until game.finished || game.raw_actions.size >= MAX_ACTIONS
  action = choose(game)
  raise "no action offered at #{game.raw_actions.size} (#{game.round.class})" unless action

  before = game.raw_actions.size
  game.process_action(action)
  next unless game.exception || game.raw_actions.size == before

  refused += 1
  warn "refused #{action.to_h.slice('type', 'entity', 'hex', 'tile', 'city', 'train', 'price')}: #{game.exception&.message}" if ENV['DEBUG']
  raise "too many refused actions (#{game.exception&.message})" if refused > 400

  game = load(game.raw_actions)
end

out = header.merge(
  'status' => game.finished ? 'finished' : 'active', 'turn' => game.turn, 'round' => game.round.name,
  'result' => game.result, 'loaded' => true, 'game_end_reason' => game.game_end_reason,
  'actions' => game.raw_actions
)
tmp = "#{OUT}.tmp"
File.write(tmp, JSON.generate(out))
File.rename(tmp, OUT)
warn JSON.generate({ file: OUT, seed: SEED, players: NPLAYERS, actions: game.raw_actions.size,
                     finished: game.finished, game_end_reason: game.game_end_reason, refused: refused })
