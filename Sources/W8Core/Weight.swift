import Foundation

/// A unit of body weight. Units are types, never strings.
public enum WeightUnit: String, Sendable, CaseIterable, Codable, Hashable {
    case lb
    case kg

    /// The exact definition of the international avoirdupois pound.
    public static let kilogramsPerPound = 0.45359237

    /// "Approaching" means within this distance of the goal (FR-004).
    public var approachingDistance: Double { self == .lb ? 5.0 : 2.5 }

    /// The weights a person can plausibly weigh: 20–700 kg, or 44–1543 lb.
    public var plausibleRange: ClosedRange<Double> { self == .lb ? 44...1543 : 20...700 }

    /// The weekly change under which a trend counts as stable (`004_*`).
    public var stableThreshold: Double { 0.5 }
}

/// A weight that carries its unit.
public struct Weight: Sendable, Equatable, Hashable, Codable {
    public var value: Double
    public var unit: WeightUnit

    public init(_ value: Double, _ unit: WeightUnit) {
        self.value = value
        self.unit = unit
    }

    /// The numeric value in `target`, converting with 1 lb = 0.45359237 kg exactly.
    public func value(in target: WeightUnit) -> Double {
        switch (unit, target) {
        case (.lb, .lb), (.kg, .kg): value
        case (.lb, .kg): value * WeightUnit.kilogramsPerPound
        case (.kg, .lb): value / WeightUnit.kilogramsPerPound
        }
    }

    public func converted(to target: WeightUnit) -> Weight { Weight(value(in: target), target) }

    /// "182.4 lb" ("82,5 kg" in German): one decimal, in the weight's own unit, for people.
    public var formatted: String { formatted(for: .person) }

    /// "182.4 lb", with the point a machine format keeps whatever the locale, or for people as `formatted`.
    public func formatted(for audience: Audience) -> String { "\(audience.decimal(value)) \(unit.rawValue)" }
}
