import Foundation

/// The file name parameters of a `Content-Disposition` header (RFC 6266), as the server sent
/// them: nothing here is safe to use as a path yet (see ``DownloadFileName``).
struct ContentDisposition: Equatable {
    /// `filename=`, a token or a quoted string, unescaped.
    var fileName: String?
    /// `filename*=`, decoded from RFC 8187's `charset'language'percent-encoded` form; `nil` when
    /// absent, malformed, or in a charset other than UTF-8 and ISO-8859-1.
    var extendedFileName: String?

    /// Parses the header's value leniently, as browsers do: an unquoted value may hold spaces,
    /// parameter names are compared case-insensitively, and the first of a repeated parameter
    /// counts. Parsing is linear in the length of the value and never fails.
    init(_ value: String) {
        var parameters = Substring(value).split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().first ?? ""
        while !parameters.isEmpty {
            let (name, parameterValue, rest) = Self.nextParameter(parameters)
            parameters = rest
            switch name.lowercased() {
            case "filename" where fileName == nil:
                fileName = parameterValue
            case "filename*" where extendedFileName == nil:
                extendedFileName = Self.decodeExtendedValue(parameterValue)
            default:
                break
            }
        }
    }

    /// One `name=value` off the front of `text`, and what follows its `;`.
    private static func nextParameter(_ text: Substring) -> (name: String, value: String, rest: Substring) {
        var text = text.drop { $0 == " " || $0 == "\t" }
        let name = text.prefix { $0 != "=" && $0 != ";" }
        text = text.dropFirst(name.count)
        let trimmedName = name.trimmingCharacters(in: .whitespaces)
        guard text.first == "=" else {
            return (trimmedName, "", text.dropFirst())
        }
        text = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard text.first == "\"" else {
            let value = text.prefix { $0 != ";" }
            return (trimmedName, value.trimmingCharacters(in: .whitespaces), text.dropFirst(value.count + 1))
        }
        // A quoted string: backslash escapes the next character; an unterminated one ends the
        // header.
        var value = ""
        var index = text.index(after: text.startIndex)
        var escaped = false
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                value.append(character)
            }
        }
        let rest = text[index...]
        let next = rest.firstIndex(of: ";").map { rest.index(after: $0) } ?? rest.endIndex
        return (trimmedName, value, rest[next...])
    }

    /// RFC 8187: `UTF-8'en'na%C3%AFve.txt` → `naïve.txt`.
    static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = percentDecoded(parts[2]) else { return nil }
        switch parts[0].lowercased() {
        case "utf-8":
            return String(bytes: bytes, encoding: .utf8)
        case "iso-8859-1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        default:
            return nil
        }
    }

    /// The bytes of `%XX` escapes and plain characters; `nil` for a broken escape or a
    /// character RFC 8187 does not allow unescaped (anything outside ASCII's printable range).
    private static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(PercentEscaping.hexValue), let low = iterator.next().flatMap(PercentEscaping.hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else if byte > 0x20 && byte < 0x7F {
                bytes.append(byte)
            } else {
                return nil
            }
        }
        return bytes
    }
}
