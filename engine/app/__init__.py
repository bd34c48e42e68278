"""The application layer: the queries both front-ends (the CLI and the web app) call — judge with
filters, rule detail, lookup, variants, books and kinds, the practice drill."""
