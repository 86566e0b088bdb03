"""Tools for people writing game data: the language server (``lsp``), the live preview
(``serve``), SARIF output for code scanning (``sarif``), overlay JSON Schemas
(``overlay_schema``), tile codes in words (``describe``) and cursor-to-YAML-path lookups
(``yamlnav``).

May import ``data``, ``notation``, ``board``, ``render`` and below; never ``commands``.
"""
