import W8Core
import W8FuzzSupport

/// `w8 add`, `w8 goal`, `--body-fat`, `w8 drink` and `--calories`: what they accept is in range, and nothing
/// crashes them.
@main enum Target {
    static func main() { runFuzzer(fuzzAmounts) }
}

func fuzzAmounts(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let input = FuzzInput(data, count)
    let text = input.text
    let units: [WeightUnit?] = [nil, .lb, .kg]
    let unit = units[Int(input.selector) % units.count]
    for defaultUnit in WeightUnit.allCases {
        if let weight = try? WeightInput.weight(text, unit: unit, defaultUnit: defaultUnit) {
            fuzzCheck(weight.unit.plausibleRange.contains(weight.value), "weight \(weight) from '\(text)'")
        }
        _ = try? WeightInput.goal(text, unit: unit, defaultUnit: defaultUnit)
    }
    if let fat = try? WeightInput.bodyFat(text) {
        fuzzCheck(WeightInput.bodyFatRange.contains(fat), "body fat \(fat) from '\(text)'")
    }
    if let drink = try? IntakeInput.drink(text, settings: IntakeSettings()) {
        fuzzCheck((1...IntakeSettings.maxDrink).contains(drink), "drink \(drink) ml from '\(text)'")
    }
    if let calories = try? IntakeInput.calories(text) {
        fuzzCheck((0...IntakeSettings.maxCalories).contains(calories), "\(calories) kcal from '\(text)'")
    }
    _ = try? WeightInput.unit(text)
    _ = try? IntakeInput.food(text)
    _ = try? WeightInput.note(text)
    return 0
}
