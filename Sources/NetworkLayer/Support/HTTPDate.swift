import Foundation

/// The one parser of HTTP-dates (RFC 9110 §5.6.7), for every header that holds one: `Date`,
/// `Expires` and `Last-Modified` in the cache, `Retry-After` in ``RetryAfter``.
///
/// Strict, as the RFC's grammar is: exactly one of the three forms a recipient must accept,
///
///     Sun, 06 Nov 1994 08:49:37 GMT    IMF-fixdate (what servers send)
///     Sunday, 06-Nov-94 08:49:37 GMT   obsolete RFC 850
///     Sun Nov  6 08:49:37 1994         obsolete asctime
///
/// with single spaces where the grammar has `SP`, two digits where it has `2DIGIT`, and day
/// names, month names and `GMT` in the grammar's letter case. Anything else (an extra space, a
/// one-digit day, another time zone, a day that does not exist) is invalid, and each caller
/// says what an invalid date means: an expired response for `Expires` (RFC 9111 §5.3), no
/// `Retry-After` at all. Only the field value's own leading and trailing spaces and tabs are
/// skipped, since they are not part of the value (RFC 9110 §5.5). The day name is not checked
/// against the date: the RFC asks nothing of recipients there.
///
/// Hand-written rather than `DateFormatter`, which accepts more than the grammar, costs tens of
/// microseconds to make, is not `Sendable`, and leaks under LeakSanitizer on Linux (DESIGN.md).
enum HTTPDate {
    /// The date, or `nil` when `text` is none of the three forms or names no real time; an RFC
    /// 850 date's year is placed around the present (see ``parse(_:now:)``).
    static func parse(_ text: String) -> Date? {
        parse(text, now: Date())
    }

    /// The date, or `nil` when `text` is none of the three forms or names no real time.
    ///
    /// - Parameter now: The present, to place an RFC 850 date's two-digit year: one that would
    ///   be more than 50 years ahead is the most recent past year with those digits (§5.6.7).
    static func parse(_ text: String, now: Date) -> Date? {
        var bytes = Substring(text).utf8[...]
        while let first = bytes.first, first == space || first == tab { bytes.removeFirst() }
        while let last = bytes.last, last == space || last == tab { bytes.removeLast() }
        // Server-controlled: refuse long values before copying them (the longest form, RFC 850
        // with "Wednesday", has 33 bytes).
        guard bytes.count <= 33 else { return nil }
        var reader = Reader(bytes: Array(bytes))
        return imfFixdate(&reader) ?? rfc850Date(&reader, now: now) ?? asctimeDate(&reader)
    }

    // MARK: The three forms

    /// `day-name "," SP 2DIGIT SP month SP 4DIGIT SP time-of-day SP "GMT"`
    private static func imfFixdate(_ reader: inout Reader) -> Date? {
        reader.restart()
        guard reader.oneOf(shortDayNames) != nil, reader.literal(", "),
            let day = reader.digits(2), reader.literal(" "),
            let month = reader.oneOf(months), reader.literal(" "),
            let year = reader.digits(4), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.isAtEnd
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    /// `day-name-l "," SP 2DIGIT "-" month "-" 2DIGIT SP time-of-day SP "GMT"`
    private static func rfc850Date(_ reader: inout Reader, now: Date) -> Date? {
        reader.restart()
        guard reader.oneOf(longDayNames) != nil, reader.literal(", "),
            let day = reader.digits(2), reader.literal("-"),
            let month = reader.oneOf(months), reader.literal("-"),
            let shortYear = reader.digits(2), reader.literal(" "),
            let time = reader.timeOfDay(), reader.literal(" GMT"), reader.isAtEnd
        else { return nil }
        // §5.6.7: a date that appears more than 50 years ahead is in the most recent past year
        // with the same last two digits.
        let currentYear = 1970 + Int((now.timeIntervalSince1970 / secondsPerYear).rounded(.down))
        let year = currentYear - currentYear % 100 + shortYear
        guard let inThisCentury = date(year: year, month: month + 1, day: day, time: time) else { return nil }
        guard inThisCentury.timeIntervalSince(now) > 50 * secondsPerYear else { return inThisCentury }
        return date(year: year - 100, month: month + 1, day: day, time: time)
    }

    /// `day-name SP month SP ( 2DIGIT / ( SP DIGIT ) ) SP time-of-day SP 4DIGIT`
    private static func asctimeDate(_ reader: inout Reader) -> Date? {
        reader.restart()
        guard reader.oneOf(shortDayNames) != nil, reader.literal(" "),
            let month = reader.oneOf(months), reader.literal(" ")
        else { return nil }
        let day: Int?
        if reader.literal(" ") {
            day = reader.digits(1)
        } else {
            day = reader.digits(2)
        }
        guard let day, reader.literal(" "), let time = reader.timeOfDay(), reader.literal(" "),
            let year = reader.digits(4), reader.isAtEnd
        else { return nil }
        return date(year: year, month: month + 1, day: day, time: time)
    }

    // MARK: Calendar

    private static let shortDayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// A mean Gregorian year, for RFC 850's 50-year rule.
    private static let secondsPerYear = 365.2425 * 86_400
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    private static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (0..<24).contains(time.hour), (0..<60).contains(time.minute), (0...60).contains(time.second),
            (1...9999).contains(year), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        // A leap second (:60) is read as :59; nothing here needs sub-minute accuracy at it.
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + min(time.second, 59)
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

    // MARK: Reading

    /// Reads the grammar's pieces from the start of a value, each consuming only what matches.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func restart() { position = 0 }

        /// Consumes `text` when the value continues with exactly it (case-sensitive).
        mutating func literal(_ text: String) -> Bool {
            let expected = Array(text.utf8)
            guard bytes.count - position >= expected.count,
                bytes[position..<position + expected.count].elementsEqual(expected)
            else { return false }
            position += expected.count
            return true
        }

        /// The index of the first of `names` the value continues with, consumed.
        mutating func oneOf(_ names: [String]) -> Int? {
            names.firstIndex { literal($0) }
        }

        /// Exactly `count` ASCII digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - position >= count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// `2DIGIT ":" 2DIGIT ":" 2DIGIT`, ranges unchecked.
        mutating func timeOfDay() -> (hour: Int, minute: Int, second: Int)? {
            guard let hour = digits(2), literal(":"), let minute = digits(2), literal(":"), let second = digits(2)
            else { return nil }
            return (hour, minute, second)
        }
    }
}
