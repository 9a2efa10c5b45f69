"""One module per `mam-bench` subcommand: `add_parser(sub)` registers it with a handler."""
