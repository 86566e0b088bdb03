# Loads the 18xx.games engine as every reference-side script here needs it: the lib/ of a
# tobymao/18xx checkout from XCHECK_18XX_LIB (default /tmp/xcheck/18xx/lib; README.md says how
# to set it up) ahead of the shim, json and logger, and the engine's log cut to warnings.
$LOAD_PATH.unshift(File.join(__dir__, 'shim'))
$LOAD_PATH.unshift(ENV.fetch('XCHECK_18XX_LIB', '/tmp/xcheck/18xx/lib'))
require 'json'
require 'logger'
require 'engine'
LOGGER.level = Logger::WARN if defined?(LOGGER)
