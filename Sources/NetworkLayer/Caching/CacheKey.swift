import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stored response is found by, without the request's headers: method, URL, credential.
///
/// The URL and the credential are SHA-256 digests, so that nothing held in an index or written
/// into a file name reveals a token, a cookie or a secret query parameter.
struct PrimaryKey: Hashable, Sendable {
    var method: String
    var url: SHA256Digest
    var credential: SHA256Digest
}

/// The full key of one stored response: its primary key, plus the request header values named
/// by its `Vary` (RFC 9111 §4.1), as a digest.
struct EntryKey: Hashable, Sendable {
    var primary: PrimaryKey
    /// The lower-cased names of the response's `Vary`, in its order; empty when it has none.
    var varyNames: [String]
    /// The digest of the request's values for `varyNames` (``SHA256Digest/zero`` without Vary).
    var varyValues: SHA256Digest
    /// The entry's identity and disk file name: a digest of all of the above.
    let id: SHA256Digest

    init(primary: PrimaryKey, varyNames: [String], varyValues: SHA256Digest) {
        self.primary = primary
        self.varyNames = varyNames
        self.varyValues = varyValues
        var hasher = SHA256()
        hasher.update(Array(primary.method.utf8) + [0])
        hasher.update(primary.url.bytes)
        hasher.update(primary.credential.bytes)
        hasher.update(varyValues.bytes)
        id = hasher.finalize()
    }
}

/// A request as the cache sees it: its primary key, its headers, and the means to check a
/// stored `Vary`.
struct RequestKey: Sendable {
    let request: URLRequest
    let primary: PrimaryKey
    /// The request's headers by lower-cased name, read once: `URLRequest.value(forHTTPHeaderField:)`
    /// costs about a microsecond a call on Linux, and a lookup needs a dozen.
    let headers: [String: String]
    /// The request's URL, against which a relative `Location` is resolved.
    let url: URL

    /// `nil` for a request without a URL or with one that is not http(s).
    ///
    /// - Parameters:
    ///   - added: The headers the transport adds on the wire (``HTTPTransport/headersAdded(to:)``),
    ///     keyed as if the request carried them: where the request has the same header, both
    ///     values count, so the key is never less specific than what is sent.
    ///   - isCredential: Whether a lower-cased header name carries a credential
    ///     (``Redaction/isCredentialHeader(_:)``).
    init?(_ request: URLRequest, adding added: HTTPHeaders = [:], isCredential: (String) -> Bool) {
        guard let url = request.url, let keyed = KeyedURL(url) else { return nil }
        self.request = request
        self.url = url
        let fields = request.allHTTPHeaderFields ?? [:]
        // Made at its size: grown one header at a time, it was reallocated on every lookup.
        var headers = [String: String](minimumCapacity: fields.count + added.count)
        for (name, value) in fields {
            let lowercased = name.lowercased()
            // Two spellings of one name: combine them as a list, as HTTP would on the wire.
            headers[lowercased] = headers[lowercased].map { $0 + "," + value } ?? value
        }
        for (name, value) in added {
            let lowercased = name.lowercased()
            headers[lowercased] = headers[lowercased].map { $0 + "," + value } ?? value
        }
        self.headers = headers
        let method = (request.httpMethod ?? "GET").uppercased()
        primary = PrimaryKey(
            method: method, url: SHA256.hash(keyed.normalized),
            credential: Self.credentialFingerprint(headers: headers, url: keyed, isCredential: isCredential))
    }

    /// The value of the request header `name` (lower-cased).
    func header(_ name: String) -> String? {
        headers[name]
    }

    /// The lower-cased names of the request's headers.
    var headerNames: Dictionary<String, String>.Keys { headers.keys }

    /// The digest of this request's values for the header `names` (lower-cased).
    ///
    /// Values are compared after trimming and removing white space around commas (§4.1 allows
    /// normalisation that keeps the meaning). An absent header differs from an empty one.
    func varyValues(for names: [String]) -> SHA256Digest {
        guard !names.isEmpty else { return .zero }
        var hasher = SHA256()
        for name in names {
            hasher.update(Array(name.utf8) + [0])
            if let value = headers[name] {
                let normalized = value.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                    .joined(separator: ",")
                hasher.update(Array(normalized.utf8) + [1])
            } else {
                hasher.update([2])
            }
        }
        return hasher.finalize()
    }

    /// The key under which a response with this `Vary` would be stored for this request.
    func entryKey(varyNames: [String]) -> EntryKey {
        EntryKey(primary: primary, varyNames: varyNames, varyValues: varyValues(for: varyNames))
    }

    /// The scheme and host lower-cased, the default port and the fragment removed, an empty
    /// path written `/` (see ``KeyedURL``). `nil` unless the URL is http or https with a host.
    static func normalizedURL(_ url: URL) -> String? {
        KeyedURL(url)?.normalized
    }

    /// A digest of the request's credentials: the values of the `headers` (by lower-cased
    /// name) that `isCredential` names, and the URL's `user:password@`. ``SHA256Digest/zero``
    /// when the request carries none.
    ///
    /// Authenticated responses are thereby stored per credential and never served to a request
    /// with another one, and the secret itself is never kept.
    static func credentialFingerprint(
        headers: [String: String], url: KeyedURL, isCredential: (String) -> Bool
    ) -> SHA256Digest {
        var hasher = SHA256()
        var found = false
        // Sorted, so that the order of the headers does not change the fingerprint; only the
        // credentials, which most requests have none of.
        for name in headers.keys.filter(isCredential).sorted() {
            guard let value = headers[name] else { continue }
            found = true
            hasher.update(Array(name.utf8) + [0] + Array(value.utf8) + [0])
        }
        if url.user != nil || url.password != nil {
            found = true
            hasher.update(Array("\u{1}userinfo".utf8) + [0])
            hasher.update(Array((url.user ?? "").utf8) + [0])
            hasher.update(Array((url.password ?? "").utf8) + [0])
        }
        return found ? hasher.finalize() : .zero
    }
}

/// What the cache reads of a request's URL: the URL as it keys it, and its `user:password@`,
/// which is a credential and not part of that key.
///
/// Read from the URL's own parse: a `URLComponents` parses it again, about 1.1 µs a lookup on
/// Linux against 0.3 µs for these accessors, and was the costliest step of a cache hit.
struct KeyedURL {
    /// The scheme and host lower-cased, the default port and the fragment removed, an empty
    /// path written `/`. The query is kept as it is: its order and escapes may matter to the
    /// server.
    let normalized: String
    let user: String?
    let password: String?

    /// `nil` unless `url` is http or https with a host.
    init?(_ url: URL) {
        let url = url.baseURL == nil ? url : url.absoluteURL
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var host = url.host(percentEncoded: true)?.lowercased(), !host.isEmpty
        else { return nil }
        // An IPv6 literal comes without its brackets; the key keeps the URL's spelling. A byte
        // search: `contains(":")` with a string goes through Foundation's `range(of:)`, a third
        // of this initializer's time (perf, 2026-11-26).
        if host.utf8.contains(UInt8(ascii: ":")), !host.hasPrefix("[") { host = "[" + host + "]" }
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true) ?? ""
        // Room for all of it at once: appended piece by piece, the text was reallocated three
        // times per lookup (":" and a port take at most six bytes).
        var text = ""
        text.reserveCapacity(scheme.utf8.count + 3 + host.utf8.count + 6 + max(1, path.utf8.count) + 1 + query.utf8.count)
        text += scheme
        text += "://"
        text += host
        if let port = url.port, port != (scheme == "https" ? 443 : 80) {
            text += ":\(port)"
        }
        text += path.isEmpty ? "/" : path
        if !query.isEmpty {
            text += "?"
            text += query
        }
        normalized = text
        user = url.user(percentEncoded: true)
        password = url.password(percentEncoded: true)
    }
}
