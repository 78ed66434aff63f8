import Foundation
import Testing

/// Runs each test case on a thread of its own rather than on the Swift concurrency pool.
///
/// The pool is as wide as the machine has cores (two here), and a test that starts `w8` or a desktop blocks its
/// thread while it waits for them: the suites that start processes spend most of their time waiting, so two such
/// tests at a time kept the CPU a fifth busy. On a thread of its own a test waits without holding a pool thread,
/// and how many run at once is `swift test --experimental-maximum-parallelization-width` (the Makefile's
/// `TEST_WIDTH`). `.serialized` suites still run one test after another.
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

/// A task executor that runs every job it is given on a new thread, which ends with the job: a test case's body is
/// one job when it does not await.
final class ThreadPerJobExecutor: TaskExecutor, Sendable {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
