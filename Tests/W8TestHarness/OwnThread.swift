import Foundation
import Testing

/// Runs each test case on a thread of its own rather than on the Swift concurrency pool.
///
/// The pool is as wide as the machine has cores (two here), and a test that starts `w8` or a desktop blocks its
/// thread while it waits for them: the suites that start processes spend most of their time waiting, so two such
/// tests at a time kept the CPU a fifth busy. On a thread of its own a test waits without holding a pool thread.
/// At most `W8_TEST_WIDTH` (4 unless set; the Makefile's `TEST_WIDTH`) such tests run at once, whoever starts
/// `swift test`; the Makefile also passes the width to `swift test --experimental-maximum-parallelization-width`,
/// so that a test's time does not include its wait for a turn. `.serialized` suites still run one test after
/// another.
public struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Each test case on a thread of its own (`OwnThreadTrait`).
    public static var ownThread: Self { OwnThreadTrait() }
}

/// A task executor that runs every job it is given on a new thread, which ends with the job (a test case's body is
/// one job: none of these tests awaits), once one of `width` turns is free.
final class ThreadPerJobExecutor: TaskExecutor, Sendable {
    static let shared = ThreadPerJobExecutor(
        width: ProcessInfo.processInfo.environment["W8_TEST_WIDTH"].flatMap { Int($0) }.map { max(1, $0) } ?? 4)

    private let turns: DispatchSemaphore

    init(width: Int) { turns = DispatchSemaphore(value: width) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let turns = turns
        let thread = Thread {
            turns.wait()
            defer { turns.signal() }
            job.runSynchronously(on: executor)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
