import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects the header lines libcurl hands over one at a time, and turns the final response's
/// head into an `HTTPURLResponse`.
///
/// A transfer can see several heads: interim `1xx` responses (`100 Continue`, `103 Early
/// Hints`) come before the final one, and only the final one is the response. Lines after the
/// final head are trailers of a chunked body and are ignored.
struct CurlResponseHead {
    /// The most a head may take, so that a server cannot make us buffer without bound.
    static let maximumSize = 256 * 1024

    enum Outcome {
        /// Keep going: a header line was kept, or an interim head ended.
        case proceed
        /// The final head ended; this is the response.
        case complete(HTTPURLResponse)
        /// The head is unusable; the message says why in plain words.
        case failed(String)
    }

    private var version = "HTTP/1.1"
    private var status: Int?
    private var fields: [(name: String, value: String)] = []
    private var size = 0
    /// Whether the final head has been seen.
    private(set) var isComplete = false

    /// Takes one line of a head, CR LF included, as libcurl's header callback receives it.
    mutating func consume(_ line: UnsafeRawBufferPointer, url: URL) -> Outcome {
        guard !isComplete else { return .proceed }
        size += line.count
        guard size <= Self.maximumSize else {
            return .failed("the response's header section is larger than \(Self.maximumSize / 1024) KiB")
        }
        let text = Self.decode(line).trimmingCharacters(in: .newlines)
        if text.hasPrefix("HTTP/") {
            // A new head starts (the final one after interim ones): forget the previous head.
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count >= 2, let code = Int(parts[1]), (100...999).contains(code) else {
                return .failed("the response's status line is malformed")
            }
            version = String(parts[0])
            status = code
            fields.removeAll(keepingCapacity: true)
            return .proceed
        }
        if text.isEmpty {
            guard let status else { return .failed("the response has no status line") }
            if (100..<200).contains(status) {
                self.status = nil
                return .proceed
            }
            isComplete = true
            return finish(status: status, url: url)
        }
        if let first = text.unicodeScalars.first, first == " " || first == "\t" {
            // Obsolete line folding (RFC 9112 5.2): the line continues the previous value.
            guard let last = fields.indices.last else { return .failed("the response's first header line is folded") }
            fields[last].value += " " + text.trimmingCharacters(in: .whitespaces)
            return .proceed
        }
        guard let colon = text.firstIndex(of: ":") else { return .failed("a response header line has no colon") }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        fields.append((name, value))
        return .proceed
    }

    private func finish(status: Int, url: URL) -> Outcome {
        // Repeated fields are joined with ", " under the first spelling of the name, as
        // Foundation does (RFC 9110 5.3).
        var joined: [String: String] = [:]
        var spelling: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            if let existing = spelling[key] {
                joined[existing] = (joined[existing] ?? "") + ", " + value
            } else {
                spelling[key] = name
                joined[name] = value
            }
        }
        if let name = spelling["content-length"], let value = joined[name], let problem = Self.contentLengthProblem(value) {
            return .failed(problem)
        }
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: version, headerFields: joined) else {
            return .failed("the response's head cannot be represented")
        }
        return .complete(response)
    }

    /// Why `value` (every Content-Length field, joined) is not one plain decimal length, or `nil`.
    ///
    /// libcurl 7.88 reads the numeric prefix of a Content-Length (`5five` is 5, `0x10` is 0,
    /// `1e3` is 1) and would deliver a body cut to that length as a success. RFC 9110 8.6 allows
    /// only digits, and repeated fields only with the same value.
    static func contentLengthProblem(_ value: String) -> String? {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let valid = parts.allSatisfy { part in
            !part.isEmpty && part.utf8.count <= 18 && part.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard valid else {
            return "the response's Content-Length \"\(printable(value))\" is not a decimal number of bytes"
        }
        guard Set(parts.compactMap { Int64($0) }).count == 1 else {
            return "the response has several different Content-Length values (\"\(printable(value))\")"
        }
        return nil
    }

    /// `value` cut to 40 characters with control characters escaped, for a message.
    private static func printable(_ value: String) -> String {
        let short = value.count > 40 ? String(value.prefix(40)) + "…" : value
        return short.unicodeScalars.map { $0.value >= 0x20 && $0.value != 0x7F ? String($0) : $0.escaped(asASCII: true) }.joined()
    }

    /// Header bytes as text: UTF-8 when they are, Latin-1 otherwise (RFC 9110 5.5's obs-text).
    private static func decode(_ bytes: UnsafeRawBufferPointer) -> String {
        if let text = String(bytes: bytes, encoding: .utf8) {
            return text
        }
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}
