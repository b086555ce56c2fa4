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
        // Bytes, not Characters: String's grapheme-aware search cost more than the URL parse.
        let path = Array(path.utf8)
        if path.contains(UInt8(ascii: "#")) {
            throw .invalidPath(String(decoding: path, as: UTF8.self), reason: "a \"#\" fragment is never sent to the server")
        }

        // The base as written: scheme (lower-cased), authority and path; then its query and fragment.
        var text = Array(base.absoluteString.utf8)
        var fragment: ArraySlice<UInt8> = []
        if let hash = text.firstIndex(of: UInt8(ascii: "#")) {
            fragment = text[hash...]
            text.removeSubrange(hash...)
        }
        var queries: [ArraySlice<UInt8>] = []
        if let mark = text.firstIndex(of: UInt8(ascii: "?")) {
            if mark + 1 < text.count { queries.append(text[(mark + 1)...]) }
            text.removeSubrange(mark...)
        }
        if let colon = text.firstIndex(of: UInt8(ascii: ":")) {
            text.replaceSubrange(..<colon, with: scheme.utf8)
        }

        var pathPart = path[...]
        if let questionMark = path.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = path[..<questionMark]
            let pathQuery = path[(questionMark + 1)...]
            if !pathQuery.isEmpty { queries.append(escape(pathQuery, keeping: isQueryCharacter)[...]) }
        }
        if let extraQuery, !extraQuery.isEmpty { queries.append(Array(extraQuery.utf8)[...]) }

        if !pathPart.isEmpty {
            if text.last == UInt8(ascii: "/") { text.removeLast() }
            var relative = escape(pathPart, keeping: isPathCharacter)[...]
            if relative.first == UInt8(ascii: "/") { relative = relative.dropFirst() }
            text.append(UInt8(ascii: "/"))
            text.append(contentsOf: relative)
        }
        for (index, query) in queries.enumerated() {
            text.append(index == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            text.append(contentsOf: query)
        }
        text.append(contentsOf: fragment)

        guard let url = URL(string: String(decoding: text, as: UTF8.self)) else {
            throw .invalidURL(base.absoluteString + "/" + String(decoding: path, as: UTF8.self))
        }
        return url
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Percent-encodes every byte `keeping` rejects; a `%` followed by two hex digits is kept as
    /// an escape, any other `%` becomes `%25`.
    private static func escape(_ bytes: ArraySlice<UInt8>, keeping isAllowed: (UInt8) -> Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
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
        return output
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
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 `query`: `pchar`, `/` and `?`.
    private static func isQueryCharacter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || isPathCharacter(byte)
    }
}
