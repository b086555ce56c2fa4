import Foundation

/// Joins an endpoint's base URL and path the way users expect, which `appendingPathComponent`
/// does not: it turns `"search?q=x"` into `search%3Fq=x` (a frequent Moya complaint).
///
/// Rules: only `http` and `https`, sent in lower case; one slash between base and path whatever either side has; a query in the path is
/// kept, after the base URL's own query; characters that cannot appear in a path or query are
/// percent-encoded, and `%XX` escapes already there are kept; a `#` in the path is an error.
enum URLJoining {
    /// `base` joined with `path`, with `query` (already percent-encoded, without `?`) appended
    /// after any query of the base and of the path.
    ///
    /// Built as one string and parsed once: `URLComponents` parses and re-serialises the URL,
    /// which cost more than everything else the router does for a request.
    static func url(base: URL, path: String, query extraQuery: String? = nil) throws(RequestBuildingError) -> URL {
        // Schemes are case-insensitive (RFC 3986 §3.1), but FoundationNetworking fails
        // "HTTP://" with -1002, and sends "ftp://" off to wait for the deadline.
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", base.host != nil else {
            throw .invalidURL(base.absoluteString)
        }
        if path.contains("#") {
            throw .invalidPath(path, reason: "a \"#\" fragment is never sent to the server")
        }

        // The base as written: scheme (lower-cased), authority and path; then its query and fragment.
        var text = base.absoluteString
        var fragment: Substring?
        if let hash = text.firstIndex(of: "#") {
            fragment = text[text.index(after: hash)...]
            text = String(text[..<hash])
        }
        var queries: [Substring] = []
        if let mark = text.firstIndex(of: "?") {
            let baseQuery = text[text.index(after: mark)...]
            if !baseQuery.isEmpty { queries.append(baseQuery) }
            text = String(text[..<mark])
        }
        if let colon = text.firstIndex(of: ":") {
            text = scheme + text[colon...]
        }

        let pathPart: Substring
        if let questionMark = path.firstIndex(of: "?") {
            pathPart = path[..<questionMark]
            let pathQuery = path[path.index(after: questionMark)...]
            if !pathQuery.isEmpty { queries.append(Substring(escape(pathQuery, keeping: isQueryCharacter))) }
        } else {
            pathPart = path[...]
        }
        if let extraQuery, !extraQuery.isEmpty { queries.append(Substring(extraQuery)) }

        if !pathPart.isEmpty {
            if text.hasSuffix("/") { text.removeLast() }
            var relative = escape(pathPart, keeping: isPathCharacter)
            if relative.hasPrefix("/") { relative.removeFirst() }
            text += "/" + relative
        }
        if !queries.isEmpty { text += "?" + queries.joined(separator: "&") }
        if let fragment { text += "#" + fragment }

        guard let url = URL(string: text) else {
            throw .invalidURL(base.absoluteString + "/" + path)
        }
        return url
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte `keeping` rejects; a `%` followed by two hex digits is kept as
    /// an escape, any other `%` becomes `%25`.
    private static func escape(_ text: Substring, keeping isAllowed: (UInt8) -> Bool) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
            {
                output.append(byte)
            } else if byte != UInt8(ascii: "%"), isAllowed(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:` and `@`.
    static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/".utf8.contains(byte)
        }
    }

    /// RFC 3986 `query`: `pchar`, `/` and `?`.
    private static func isQueryCharacter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || isPathCharacter(byte)
    }
}
