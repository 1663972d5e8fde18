"""The review page: ``extractor review serve`` shows one item at a time in the browser and
records each decision through the review core, into the same store as the review sheet."""
