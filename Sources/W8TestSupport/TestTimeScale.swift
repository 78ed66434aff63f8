import Foundation

/// How much longer than usual a timed expectation may take: `W8_TEST_TIME_SCALE`, set by the sanitizer runs whose
/// instrumented binaries start and run several times slower; 1 otherwise.
public let testTimeScale = ProcessInfo.processInfo.environment["W8_TEST_TIME_SCALE"].flatMap(Double.init) ?? 1
