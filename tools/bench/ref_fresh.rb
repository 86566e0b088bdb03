# One whole 18xx.games replay as a command-line call pays it: start Ruby, load the engine, replay
# one game file (non-strict unless STRICT=1).  tools/bench/bench_speed.py times this process as a
# whole, beside a whole `ferrovia replay FILE`.  Needs XCHECK_18XX_LIB (default
# /tmp/xcheck/18xx/lib); tools/xcheck/README.md says how to set it up.
require_relative '../xcheck/load_engine'

data = JSON.parse(File.read(ARGV.fetch(0)))
data['title'] ||= '1858'
game = Engine::Game.load(data, strict: ENV['STRICT'] == '1')
exit(game.exception.nil? ? 0 : 1)
