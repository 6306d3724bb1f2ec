// Keeps nestor_bruteforce a valid library while its sources are being added.
namespace nestor::test { int bruteForceLibraryAnchor = 0; }
