"""The bundled game definitions (YAML). A package only so that the data installs with Ferrovia."""
