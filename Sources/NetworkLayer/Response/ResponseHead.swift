import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response's status and header fields, as a transport received them: an `HTTPURLResponse`
/// that Foundation already made, or the parts of one that is made only when someone asks for it
/// (``Response/httpResponse``).
///
/// Making one is not free on Linux: FoundationNetworking's initializer capitalises every field
/// name through `NSString` and searches the fields three times, about 1.1 µs a field (4.6 µs for
/// the four fields of the benchmark's answer, 2026-11-26, 2-core Linux), a tenth of the CPU of a
/// request over ``NetworkLayer/HTTPTransport`` on libcurl. The router itself needs only the
/// status and a field or two, which the parts answer directly.
///
/// An enum of two references, so that ``Response`` stays as short to copy as it was.
package enum ResponseHead: Sendable {
    /// A response Foundation made (URLSession's, a user's transport's).
    case made(HTTPURLResponse)
    /// The parts of a response read off the wire or given by a stub.
    case received(ReceivedHead)

    /// A head whose `HTTPURLResponse` is made from these parts when first asked for; `nil` when
    /// Foundation cannot make a response for `url` and `statusCode` at all.
    ///
    /// - Parameter fields: The header fields, one entry per field name (repeated fields already
    ///   joined with `", "`), with names as they were received.
    package init?(url: URL, statusCode: Int, httpVersion: String, fields: [String: String]) {
        // A response without fields, made at once: Foundation's initializer is failable (Apple's
        // does not say when; FoundationNetworking's never fails), and the head must have a
        // response to give even then. Without fields it costs a tenth of one with four, and it
        // is the whole response when there are none (a stub's, often).
        guard let bare = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: nil) else {
            return nil
        }
        if fields.isEmpty {
            self = .made(bare)
        } else {
            self = .received(ReceivedHead(bare: bare, httpVersion: httpVersion, fields: fields))
        }
    }

    /// Whether a received head has made its `HTTPURLResponse` yet; `true` for a made one.
    package var isMade: Bool {
        switch self {
        case .made: return true
        case .received(let head): return head.isMade
        }
    }

    /// The HTTP status code.
    package var statusCode: Int {
        switch self {
        case .made(let response): return response.statusCode
        case .received(let head): return head.statusCode
        }
    }

    /// The `HTTPURLResponse`, made once, on first use, for a received head.
    package var httpResponse: HTTPURLResponse {
        switch self {
        case .made(let response): return response
        case .received(let head): return head.httpResponse
        }
    }

    /// The value of the field `name`, compared case-insensitively (``HeaderName/same(_:_:)``).
    package func value(named name: String) -> String? {
        switch self {
        case .made(let response):
            for (key, value) in response.allHeaderFields {
                if let key = key as? String, HeaderName.same(key, name) { return value as? String }
            }
            return nil
        case .received(let head):
            return HeaderName.value(of: name, in: head.fields)
        }
    }
}

/// The parts of a received response, and the `HTTPURLResponse` made from them once asked for.
package final class ReceivedHead: Sendable {
    let fields: [String: String]
    private let httpVersion: String
    /// The same status and URL without fields: what ``httpResponse`` gives should Foundation
    /// refuse the fields.
    private let bare: HTTPURLResponse
    private let made = Locked<HTTPURLResponse?>(nil)

    init(bare: HTTPURLResponse, httpVersion: String, fields: [String: String]) {
        self.bare = bare
        self.httpVersion = httpVersion
        self.fields = fields
    }

    var statusCode: Int { bare.statusCode }

    /// Whether ``httpResponse`` has been made (for tests: the router's plain path must not make it).
    var isMade: Bool { made.withLock { $0 != nil } }

    /// The response with every field, made on first use; should Foundation refuse the fields
    /// (Apple's initializer is failable without saying when; FoundationNetworking's never fails),
    /// the response without them, while ``ResponseHead/value(named:)`` still answers from them.
    var httpResponse: HTTPURLResponse {
        made.withLock { made in
            if let made { return made }
            let response =
                bare.url.flatMap {
                    HTTPURLResponse(url: $0, statusCode: bare.statusCode, httpVersion: httpVersion, headerFields: fields)
                } ?? bare
            made = response
            return response
        }
    }
}
