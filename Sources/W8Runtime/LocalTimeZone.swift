import Foundation
import W8Text

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The zone `TZ` names, read as glibc reads it (`tzset(3)`), so that w8 shows the times `date` shows. Foundation
/// alone read `UTC+14` as 14 hours east, where POSIX and glibc read it as 14 hours west, and fell back to UTC,
/// silently, for `:Europe/Berlin` and `<+1345>-13:45`.
enum LocalTimeZone {
    /// The zone, and a warning when w8 cannot follow `tz` exactly: a POSIX string with daylight-saving rules (w8
    /// then uses the offset glibc gives for `now`, for every date), or text that is no zone at all (glibc, and w8,
    /// then use UTC).
    static func resolve(_ tz: String?, now: Date) -> (zone: TimeZone, warning: String?) {
        let utc = TimeZone(secondsFromGMT: 0)!
        guard let tz else { return (TimeZone.current, nil) }  // /etc/localtime
        if tz.isEmpty { return (utc, nil) }  // an empty TZ is UTC to glibc
        // ":NAME" and "NAME": a file of the zone database, by name or by path.
        var name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        if name.hasPrefix("/"), let range = name.range(of: "/zoneinfo/") { name = String(name[range.upperBound...]) }
        let directory = getenv("TZDIR").map { String(cString: $0) } ?? "/usr/share/zoneinfo"
        var isDirectory: ObjCBool = false
        // Only a file of the zone database: Foundation also takes "UTC+14" as a name, with the opposite sign.
        if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory),
            !isDirectory.boolValue, let zone = TimeZone(identifier: name)
        {
            return (zone, nil)
        }
        guard !tz.hasPrefix(":"), isPOSIX(tz) else {
            // TRANSLATORS: a warning, after "w8: "; {tz} is the TZ variable's value. Keep TZ, UTC and glibc.
            return (utc, tr("TZ '{tz}' names no time zone; times are shown in UTC, as glibc shows them", ["tz": tz]))
        }
        // A POSIX string ("UTC+14", "<+1345>-13:45", "EST5EDT,M3.2.0,M11.1.0"): glibc's own offsets.
        let offsetNow = glibcOffset(at: now)
        let offsets = stride(from: 0, to: 366, by: 30).map { glibcOffset(at: now + Double($0) * 86_400) }
        let zone = TimeZone(secondsFromGMT: offsetNow) ?? utc
        if offsets.allSatisfy({ $0 == offsetNow }) { return (zone, nil) }
        return (
            zone,
            tr(
                // TRANSLATORS: a warning, after "w8: "; {tz} is the TZ variable's value, {zone} a fixed offset ("GMT+0100").
                "TZ '{tz}' changes for daylight saving by rules w8 cannot follow: every time is shown at its offset now ({zone})",
                ["tz": tz, "zone": zone.identifier])
        )
    }

    /// Whether `tz` reads as a POSIX TZ string: a name of at least three letters (or `<…>` quoted) and an offset,
    /// then optionally a daylight-saving name, its offset and its rules.
    static func isPOSIX(_ tz: String) -> Bool {
        let name = #"(<[A-Za-z0-9+-]{3,}>|[A-Za-z]{3,})"#
        let offset = #"[+-]?[0-9]{1,2}(:[0-9]{1,2}){0,2}"#
        return tz.range(of: "^\(name)\(offset)(\(name)(\(offset))?(,.+)?)?$", options: .regularExpression) != nil
    }

    /// The offset from UTC, in seconds east, that glibc gives for `date` under the process's `TZ`
    /// (`tzset(3)`, `localtime_r(3)`'s `tm_gmtoff`).
    static func glibcOffset(at date: Date) -> Int {
        tzset()
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var broken = tm()
        guard localtime_r(&seconds, &broken) != nil else { return 0 }
        return broken.tm_gmtoff
    }
}
