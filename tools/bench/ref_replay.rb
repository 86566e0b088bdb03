# Times the 18xx.games engine's replay of game files in one Ruby process (the reference side of
# tools/bench/bench_speed.py).  Needs XCHECK_18XX_LIB (default /tmp/xcheck/18xx/lib), the lib/
# of a tobymao/18xx checkout; tools/xcheck/README.md says how to set it up.  One JSON line per
# file: CPU seconds of the first load in this process and the best of REPEAT warm loads
# (non-strict unless STRICT=1), and whether it replayed to the end.
require_relative '../xcheck/load_engine'

strict = ENV['STRICT'] == '1'
repeat = Integer(ENV.fetch('REPEAT', '3'))

def cpu
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

ARGV.each do |path|
  data = JSON.parse(File.read(path))
  data['title'] ||= '1858'
  times = []
  ok = nil
  (repeat + 1).times do
    t0 = cpu
    game = Engine::Game.load(data, strict: strict)
    times << (cpu - t0)
    ok = game.exception.nil?
  end
  puts JSON.generate({ file: path, first: times[0], warm: times[1..].min, ok: ok,
                       actions: data['actions'].size })
end
