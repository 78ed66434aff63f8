import Foundation
import Testing
import W8Core
import W8TestHarness

/// Trend weight, weekly rate and forecast in `w8 status` and `w8 summary`, run at a fixed moment (libfaketime).
@Suite(.ownThread) struct TrendCLITests {
    /// A frozen clock (`faketime -f` with an absolute time): the output does not depend on how long a run takes.
    static let now = "2026-11-21 12:00:00"

    func at(_ w8: W8Sandbox, _ arguments: String...) throws -> W8Run {
        try w8.run(clock: TrendCLITests.now, arguments)
    }

    /// 15 daily weigh-ins at 07:00 losing 0.2 lb a day, the last on the morning of `now`, and a goal of 170.
    func losing() throws -> W8Sandbox {
        let w8 = try W8Sandbox()
        for day in 0...14 {
            let date = String(format: "2026-11-%02dT07:00", 7 + day)
            try w8.run("add", (190 - 0.2 * Double(day)).oneDecimalText, "--date", date)
        }
        try w8.run("goal", "170", "--date", "2026-11-07T08:00")
        return w8
    }

    @Test func statusShowsTrendRateAndForecast() throws {
        let w8 = try losing()
        let status = try object(try at(w8, "status", "--json").json())
        // The trend lags a steady loss by 9 days' worth (τ ≈ 9.49 days): 187.2 + 0.2 × 9 × (1 − 0.9^14).
        let trend = try #require(status["trend_weight"] as? Double)
        #expect(trend == 188.6)
        // Least squares over the 14 days after Nov 7 (numpy.polyfit of the same recurrence): -0.7646 lb a week,
        // so the goal is (170 − 188.588) / (−0.7646 / 7) = 170.17 days after now: 10 May 2027 15:07 UTC, in
        // Berlin's summer time.
        #expect(status["weekly_rate"] as? Double == -0.8)
        let forecast = try #require(status["forecast_date"] as? String)
        #expect(forecast.hasPrefix("2027-05-10T17:07:"), "\(forecast)")
        #expect(forecast.hasSuffix("+02:00"))
        let text = try at(w8, "status").stdout
        #expect(text.contains("Trend     188.6 lb · -"))
        #expect(text.contains("Forecast  goal on "))
    }

    @Test func summaryShowsTheTrendInTextJSONAndNotification() throws {
        let w8 = try losing()
        let summary = try object(try at(w8, "summary", "--json").json())
        #expect(summary["trend_weight"] as? Double == 188.6)
        #expect(summary["weekly_rate"] is Double)
        #expect(summary["forecast_date"] is String)
        let body = try #require(summary["body"] as? String)
        #expect(body.contains("Trend 188.6 lb, down "), "\(body)")
        #expect(try at(w8, "summary").stdout.contains("Forecast: at this rate you reach your goal on "))
    }

    @Test func thinDataWithholdsRateAndForecast() throws {
        let w8 = try W8Sandbox()
        for (day, weight) in [(14, "181"), (18, "180"), (20, "179")] {
            try w8.run("add", weight, "--date", "2026-11-\(day)T07:00")
        }
        try w8.run("goal", "170", "--date", "2026-11-14T08:00")
        let status = try object(try at(w8, "status", "--json").json())
        #expect(status["trend_weight"] is Double)
        #expect(status["weekly_rate"] is NSNull, "3 weigh-ins in the last 7 days are too few")
        #expect(status["forecast_date"] is NSNull)
        #expect(try at(w8, "status").stdout.contains("rate needs 4 weigh-ins in the last 7 days"))
    }

    @Test func noEntriesNoTrend() throws {
        let w8 = try W8Sandbox()
        let status = try object(try at(w8, "status", "--json").json())
        #expect(status["trend_weight"] is NSNull)
        #expect(status["weekly_rate"] is NSNull)
        #expect(status["forecast_date"] is NSNull)
    }
}
