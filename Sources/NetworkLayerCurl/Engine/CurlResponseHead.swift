import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects the header lines libcurl hands over one at a time, and turns the final response's
/// head into an `HTTPURLResponse`.
///
/// A transfer can see several heads: interim `1xx` responses (`100 Continue`, `103 Early
/// Hints`; not `101`, see ``consume(_:url:)``) come before the final one, and only the final
/// one is the response. Lines after the final head are trailers of a chunked body and are
/// ignored.
struct CurlResponseHead {
    /// The most a head may take, so that a server cannot make us buffer without bound.
    static let maximumSize = 256 * 1024

    enum Outcome {
        /// Keep going: a header line was kept, or an interim head ended.
        case proceed
        /// The final head ended; this is the response.
        case complete(ResponseHead)
        /// The head is unusable; the message says why in plain words.
        case failed(String)
    }

    private var version = "HTTP/1.1"
    private var status: Int?
    /// Room for a typical head's fields from the start: grown one append at a time, the array
    /// was reallocated three or four times per response.
    private var fields: [(name: String, value: String)] = {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(16)
        return fields
    }()
    private var size = 0
    /// The values of the `Set-Cookie` fields of the last head, each on its own: joined, as
    /// other repeated fields are, they could not be told apart (an `Expires` date has a comma).
    var setCookieValues: [String] {
        fields.filter { HeaderName.same($0.name, "Set-Cookie") }.map(\.value)
    }
    /// Whether the final head has been seen.
    private(set) var isComplete = false

    /// Takes one line of a head, CR LF included, as libcurl's header callback receives it.
    ///
    /// Parsed as bytes: Foundation's string trimming and searching cost more than the rest of
    /// the transfer put together on this path.
    mutating func consume(_ bytes: UnsafeRawBufferPointer, url: URL) -> Outcome {
        guard !isComplete else { return .proceed }
        size += bytes.count
        guard size <= Self.maximumSize else {
            return .failed("the response's header section is larger than \(Self.maximumSize / 1024) KiB")
        }
        var line = bytes[...]
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
            line = line.dropLast()
        }
        // Only a head's first line is its status line: at the start and after an interim head
        // (`status` is nil then). libcurl hands any later line on as a header, even one that
        // starts with "HTTP/" (with a colon further on; without one it fails the transfer), and
        // taking that for a new head made a 401 with a line "HTTP/1.1 200 OK: x" come back 200
        // without its earlier fields.
        if status == nil, line.starts(with: "HTTP/".utf8) {
            // A new head starts (the final one after interim ones): forget the previous head.
            // "HTTP/1.1 200 OK": the version, a space (more than one, as libcurl accepts),
            // three digits, then a space or the end.
            guard let space = line.firstIndex(of: UInt8(ascii: " ")) else {
                return .failed("the response's status line is malformed")
            }
            let digits = line[(space + 1)...].drop { $0 == UInt8(ascii: " ") }.prefix(3)
            let afterDigits = digits.endIndex
            guard digits.count == 3, digits.allSatisfy(Self.isDigit),
                afterDigits == line.endIndex || line[afterDigits] == UInt8(ascii: " ")
            else {
                return .failed("the response's status line is malformed")
            }
            version = Self.text(line[..<space])
            status = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            fields.removeAll(keepingCapacity: true)
            return .proceed
        }
        // Where a status line must be, anything else (`http/1.1 200 OK`, which libcurl lets
        // through) is a malformed status line, not a header line without a colon.
        if status == nil, !line.isEmpty {
            return .failed("the response's status line is malformed: it does not start with \"HTTP/\"")
        }
        if line.isEmpty {
            guard let status else { return .failed("the response has no status line") }
            // A 101 is interim only for an upgrade libcurl asked for, which this transport never
            // does (no h2c, no WebSocket): libcurl then takes it as the final head and the rest
            // of the connection as its body, and so must we.
            if (100..<200).contains(status), status != 101 {
                self.status = nil
                return .proceed
            }
            isComplete = true
            return finish(status: status, url: url)
        }
        if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
            // Obsolete line folding (RFC 9112 5.2): the line continues the previous value.
            guard let last = fields.indices.last else { return .failed("the response's first header line is folded") }
            fields[last].value += " " + Self.text(Self.trimmed(line))
            return .proceed
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .failed("a response header line has no colon")
        }
        fields.append((Self.text(line[..<colon]), Self.text(Self.trimmed(line[(colon + 1)...]))))
        return .proceed
    }

    private func finish(status: Int, url: URL) -> Outcome {
        // Repeated fields are joined with ", " under the first spelling of the name, as
        // Foundation does (RFC 9110 5.3), appended in place so that a head of one field
        // repeated thousands of times costs linear time. Both dictionaries are made at their
        // final size: grown one field at a time, they were reallocated about eight times per
        // response.
        var byLowercasedName = [String: (name: String, value: String)](minimumCapacity: fields.count)
        for (name, value) in fields {
            let key = name.lowercased()
            if let index = byLowercasedName.index(forKey: key) {
                byLowercasedName.values[index].value += ", "
                byLowercasedName.values[index].value += value
            } else {
                byLowercasedName[key] = (name, value)
            }
        }
        var joined = [String: String](minimumCapacity: byLowercasedName.count)
        for (name, value) in byLowercasedName.values { joined[name] = value }
        let contentLength = byLowercasedName["content-length"]?.value
        let transferEncoding = byLowercasedName["transfer-encoding"]?.value
        if let problem = BodyFraming.problem(contentLength: contentLength, transferEncoding: transferEncoding) {
            return .failed(problem)
        }
        // The HTTPURLResponse is made only if someone asks for it: FoundationNetworking's
        // initializer costs about 1.1 µs a field (ResponseHead).
        guard let head = ResponseHead(url: url, statusCode: status, httpVersion: version, fields: joined) else {
            return .failed("the response's head cannot be represented")
        }
        return .complete(head)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// `bytes` without leading and trailing spaces and tabs (RFC 9110's OWS).
    private static func trimmed<Bytes: BidirectionalCollection>(_ bytes: Bytes) -> Bytes.SubSequence where Bytes.Element == UInt8 {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var slice = bytes[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// Header bytes as text: UTF-8 when they are, Latin-1 otherwise (RFC 9110 5.5's obs-text).
    private static func text<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        if let text = String(bytes: bytes, encoding: .utf8) {
            return text
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}
