import Foundation

/// Parses the HTTP-dates of `Date`, `Expires` and `Last-Modified` (RFC 9110 §5.6.7).
///
/// A hand-written parser rather than `DateFormatter`: the cache reads these headers for every
/// response it considers, a formatter costs tens of microseconds to make, is not `Sendable`,
/// and leaks under LeakSanitizer on Linux (DESIGN.md). The three formats a recipient must accept:
///
///     Sun, 06 Nov 1994 08:49:37 GMT    IMF-fixdate (what servers send)
///     Sunday, 06-Nov-94 08:49:37 GMT   obsolete RFC 850
///     Sun Nov  6 08:49:37 1994         obsolete asctime
enum HTTPDate {
    /// The date, or `nil` when `text` is none of the three formats or names no real time.
    static func parse(_ text: String) -> Date? {
        // Server-controlled: refuse long values before splitting them.
        guard text.utf8.count <= 64 else { return nil }
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        switch fields.count {
        case 6:  // Sun, 06 Nov 1994 08:49:37 GMT
            guard fields[0].hasSuffix(","), fields[5] == "GMT", fields[3].utf8.count == 4,
                let day = Int(fields[1]), let month = month(fields[2]), let year = Int(fields[3])
            else { return nil }
            return date(year: year, month: month, day: day, time: fields[4])
        case 4:  // Sunday, 06-Nov-94 08:49:37 GMT
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard fields[0].hasSuffix(","), fields[3] == "GMT", parts.count == 3, parts[2].utf8.count == 2,
                let day = Int(parts[0]), let month = month(parts[1]), let shortYear = Int(parts[2])
            else { return nil }
            // RFC 9110 asks for "the most recent year in the past with the same last two digits"
            // when a date is over 50 years ahead; a fixed pivot gives that answer until 2069.
            return date(year: shortYear < 70 ? 2000 + shortYear : 1900 + shortYear, month: month, day: day, time: fields[2])
        case 5:  // Sun Nov  6 08:49:37 1994
            guard let month = month(fields[1]), let day = Int(fields[2]), fields[4].utf8.count == 4, let year = Int(fields[4])
            else { return nil }
            return date(year: year, month: month, day: day, time: fields[3])
        default:
            return nil
        }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func month(_ name: Substring) -> Int? {
        months.firstIndex(of: String(name)).map { $0 + 1 }
    }

    private static func date(year: Int, month: Int, day: Int, time: Substring) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.utf8.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0..<24).contains(hour), (0..<60).contains(minute), (0...60).contains(second),
            (1...9999).contains(year), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        // A leap second (:60) is read as :59; nothing here needs sub-minute accuracy at it.
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Count from 1 March of a shifted year, so that the leap day falls at the end of it.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400  // years are >= 1 here, so no negative division
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
