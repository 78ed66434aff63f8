import Foundation

/// SplitMix64: random numbers from a seed that the test prints, so that a failing run can be repeated.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The seed in `$W8_SEED`, or one from the clock; printed either way.
    public static func fromEnvironment(_ test: String) -> SeededRandom {
        let given = ProcessInfo.processInfo.environment["W8_SEED"].flatMap { UInt64($0) }
        let seed = given ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(test): seed \(seed) (repeat with W8_SEED=\(seed))")
        return SeededRandom(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
