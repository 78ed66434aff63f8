import Foundation

/// Reads what people type for `w8 drink` and `w8 eat`, and refuses anything else with the value named.
public enum IntakeInput {
    /// `w8 drink --help`: the amount forms.
    public static let drinkHelp = """
        AMOUNT is 250, 250ml, 0.5l, 12oz (US fluid ounces), cup, bottle or 2cups (intake.cup_ml and \
        intake.bottle_ml); one drink is at most 5 l. Reaching intake.water_goal_ml posts "Water goal \
        reached" once a day. Examples: w8 drink · w8 drink bottle · w8 drink 330ml --beverage --calories 140
        """

    /// Millilitres from `250`, `250ml`, `0.5l`, `0,5 l`, `12oz`, `cup`, `bottle`, `2cups` or `1.5 bottles`, with the
    /// cup and bottle sizes of `settings`. One drink is more than 0 and at most 5 litres.
    public static func drink(_ text: String, settings: IntakeSettings) throws -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let numberEnd = trimmed.firstIndex { !("0"..."9").contains($0) && $0 != "." && $0 != "," && $0 != "-" }
        let numberText = String(trimmed[..<(numberEnd ?? trimmed.endIndex)])
        let unitText = String(trimmed[(numberEnd ?? trimmed.endIndex)...]).trimmingCharacters(in: .whitespaces)
        let count: Double
        if numberText.isEmpty {
            count = 1
        } else {
            guard let number = Double(numberText.replacingOccurrences(of: ",", with: ".")), number.isFinite else {
                throw W8CoreError.drinkInvalid(text)
            }
            count = number
        }
        let millilitresPer: Double
        switch unitText {
        case "" where !numberText.isEmpty, "ml": millilitresPer = 1
        case "l", "litre", "litres", "liter", "liters": millilitresPer = 1000
        case "oz", "floz", "fl oz": millilitresPer = VolumeUnit.millilitresPerUSFluidOunce
        case "cup", "cups": millilitresPer = Double(settings.cup)
        case "bottle", "bottles": millilitresPer = Double(settings.bottle)
        default: throw W8CoreError.drinkInvalid(text)
        }
        guard count > 0 else { throw W8CoreError.drinkNotPositive(text) }
        let millilitres = (count * millilitresPer).rounded()
        guard millilitres >= 1 else { throw W8CoreError.drinkNotPositive(text) }
        guard millilitres <= Double(IntakeSettings.maxDrink) else { throw W8CoreError.drinkTooLarge(text) }
        return Int(millilitres)
    }

    /// Kilocalories from `--calories`: a whole number from 0 to 10,000.
    public static func calories(_ text: String) throws -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)),
            (0...IntakeSettings.maxCalories).contains(value)
        else { throw W8CoreError.caloriesInvalid(text) }
        return value
    }

    /// `meal` or `snack`, for `w8 eat`.
    public static func food(_ text: String) throws -> IntakeKind {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "meal": .meal
        case "snack": .snack
        default: throw W8CoreError.foodUnknown(text)
        }
    }
}
