// Keeps the test utility library non-empty.
