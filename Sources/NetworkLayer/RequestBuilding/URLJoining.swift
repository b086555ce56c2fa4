import Foundation

/// Joins an endpoint's base URL and path the way users expect, which `appendingPathComponent`
/// does not: it turns `"search?q=x"` into `search%3Fq=x` (a frequent Moya complaint).
///
/// Rules: only `http` and `https`, sent in lower case; one slash between base and path whatever either side has; a query in the path is
/// kept, after the base URL's own query; characters that cannot appear in a path or query are
/// percent-encoded, and `%XX` escapes already there are kept; a `#` in the path, and a `.` or
/// `..` segment, are errors.
enum URLJoining {
    /// `base` joined with `path`, with `query` (already percent-encoded, without `?`) appended
    /// after any query of the base and of the path.
    ///
    /// Built as one byte string and parsed once: `URLComponents` parses and re-serialises the
    /// URL, and `URL`'s own `scheme` and `host` parse again, which together cost more than
    /// everything else the router does for a request.
    static func url(base: URL, path: String, query extraQuery: String? = nil) throws(RequestBuildingError) -> URL {
        var baseText = base.absoluteString
        if path.utf8.contains(UInt8(ascii: "#")) {
            throw .invalidPath(ErrorText.url(path), reason: "a \"#\" fragment is never sent to the server")
        }
        if hasDotSegment(path.utf8) {
            throw .invalidPath(
                ErrorText.url(path),
                reason: "a \".\" or \"..\" segment would leave the base URL's path, and the transports resolve it differently")
        }
        // Read in place, not copied into an array first.
        var pathText = path
        let joined = pathText.withUTF8 { path in baseText.withUTF8 { base in join(base, path[...], extraQuery: extraQuery) } }
        if let joined, joined.count > maximumLength {
            throw .urlTooLong(length: joined.count, limit: maximumLength)
        }
        guard let joined, let url = URL(string: String(decoding: joined, as: UTF8.self)) else {
            throw .invalidURL(ErrorText.url(base.absoluteString + (joined == nil ? "" : "/" + path)))
        }
        return url
    }

    /// Whether the path part of `path` (before any `?`) has a segment that is `.` or `..`, once
    /// percent-decoded: FoundationNetworking resolves them (`/v1/` and `../admin` reach
    /// `/admin`), CurlTransport sends them as written, and servers such as nginx decode
    /// `%2E%2E` and `..%2Fadmin` first and then resolve them (measured 2026-11-26: `/api/users/`
    /// and `..%2Fadmin` reach `/api/admin`). A decoded `/` or `\` ends a segment too (IIS
    /// takes a backslash for a slash).
    static func hasDotSegment(_ path: String.UTF8View) -> Bool {
        var dots = 0
        var segmentHasOther = false
        var segmentIsDots: Bool { !segmentHasOther && (dots == 1 || dots == 2) }
        var index = path.startIndex
        while index != path.endIndex {
            var byte = path[index]
            var next = path.index(after: index)
            var isEscaped = false
            if byte == UInt8(ascii: "%"), next != path.endIndex, let high = PercentEscaping.hexValue(path[next]) {
                let second = path.index(after: next)
                if second != path.endIndex, let low = PercentEscaping.hexValue(path[second]) {
                    (byte, next, isEscaped) = (high << 4 | low, path.index(after: second), true)
                }
            }
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"):
                if segmentIsDots { return true }
                (dots, segmentHasOther) = (0, false)
            case UInt8(ascii: "?") where !isEscaped:
                return segmentIsDots
            case UInt8(ascii: "."):
                dots += 1
            default:
                segmentHasOther = true
            }
            index = next
        }
        return segmentIsDots
    }

    /// The longest URL a request may have, in bytes: 1 MiB. Servers refuse far less (8 KiB by
    /// default in nginx and Apache, 16 KiB in IIS); past it FoundationNetworking failed after
    /// seconds with `URLError(.unknown)` and libcurl (from 8 MB) refused the option, each in its
    /// own words. Above it the request is not sent: a body is where that much data goes.
    static let maximumLength = 1 << 20

    /// Takes `user:password@` out of `url` and returns it as an `Authorization: Basic` value
    /// (RFC 7617), or `nil` when the URL has none. The same on every transport (FoundationNetworking
    /// sent the credentials, libcurl through CurlTransport did not), and never in a URL that an
    /// error, a log line or `cURLDescription()` could show.
    static func removeUserInfo(from url: inout URL) -> String? {
        // A byte scan of the authority first: every request passes here, and almost none has
        // user info, so URLComponents is made only for those that do.
        let text = url.absoluteString.utf8
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let authority = text[colon...].dropFirst(3).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        guard authority.contains(UInt8(ascii: "@")), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return nil
        }
        let credentials = "\(components.user ?? ""):\(components.password ?? "")"
        components.user = nil
        components.password = nil
        guard let stripped = components.url else { return nil }
        url = stripped
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// The joined URL's bytes, or `nil` when `base` is not an absolute `http` or `https` URL
    /// with a host.
    private static func join(_ base: UnsafeBufferPointer<UInt8>, _ path: Slice<UnsafeBufferPointer<UInt8>>, extraQuery: String?) -> [UInt8]? {
        // Schemes are case-insensitive (RFC 3986 §3.1), but FoundationNetworking fails
        // "HTTP://" with -1002, and sends "ftp://" off to wait for the deadline.
        guard let colon = base.firstIndex(of: UInt8(ascii: ":")), let scheme = httpScheme(base[..<colon]) else { return nil }
        // An authority that is not empty, as `URL.host` requires: "http:///x" has none.
        let authority = colon + 3
        guard authority < base.count, base[colon + 1] == UInt8(ascii: "/"), base[colon + 2] == UInt8(ascii: "/"),
            !isDelimiter(base[authority])
        else { return nil }

        // The base as written: scheme (lower-cased), authority and path; then its query and fragment.
        let fragmentStart = base[authority...].firstIndex(of: UInt8(ascii: "#")) ?? base.count
        let queryStart = base[authority..<fragmentStart].firstIndex(of: UInt8(ascii: "?")) ?? fragmentStart
        var pathPart = path
        var pathQuery = path[path.endIndex...]
        if let questionMark = path.firstIndex(of: UInt8(ascii: "?")) {
            pathPart = path[..<questionMark]
            pathQuery = path[(questionMark + 1)...]
        }

        var text: [UInt8] = []
        text.reserveCapacity(base.count + 3 * path.count + (extraQuery?.utf8.count ?? 0) + 2)
        text.append(contentsOf: scheme.utf8)
        text.append(contentsOf: base[colon..<queryStart])
        if !pathPart.isEmpty {
            if text.last == UInt8(ascii: "/") { text.removeLast() }
            text.append(UInt8(ascii: "/"))
            let relative = pathPart.first == UInt8(ascii: "/") ? pathPart.dropFirst() : pathPart
            escape(relative, into: &text, keeping: isPathCharacter)
        }
        var separator = UInt8(ascii: "?")
        if queryStart + 1 < fragmentStart {
            text.append(separator)
            text.append(contentsOf: base[(queryStart + 1)..<fragmentStart])
            separator = UInt8(ascii: "&")
        }
        if !pathQuery.isEmpty {
            text.append(separator)
            escape(pathQuery, into: &text, keeping: isQueryCharacter)
            separator = UInt8(ascii: "&")
        }
        if let extraQuery, !extraQuery.isEmpty {
            text.append(separator)
            text.append(contentsOf: extraQuery.utf8)
        }
        text.append(contentsOf: base[fragmentStart...])
        return text
    }

    /// `"http"` or `"https"` when `scheme` is one of them in any case.
    private static func httpScheme(_ scheme: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
        // `| 0x20` lower-cases ASCII letters, and maps no other byte onto h, t, p or s. Compared
        // byte by byte: zipping with a string's UTF-8 view was 1.4 % of a stubbed request's time.
        let start = scheme.startIndex
        guard scheme.count == 4 || scheme.count == 5, scheme[start] | 0x20 == UInt8(ascii: "h"),
            scheme[start + 1] | 0x20 == UInt8(ascii: "t"), scheme[start + 2] | 0x20 == UInt8(ascii: "t"),
            scheme[start + 3] | 0x20 == UInt8(ascii: "p")
        else { return nil }
        if scheme.count == 4 { return "http" }
        return scheme[start + 4] | 0x20 == UInt8(ascii: "s") ? "https" : nil
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `bytes` to `output`, percent-encoding every byte `keeping` rejects; a `%`
    /// followed by two hex digits is kept as an escape, any other `%` becomes `%25`.
    private static func escape(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, into output: inout [UInt8], keeping isAllowed: (UInt8) -> Bool) {
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
