"""The command line (`liuren …`): parses arguments, calls the application layer, prints."""
