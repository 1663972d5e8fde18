from extractor.cli.app import main

main()
