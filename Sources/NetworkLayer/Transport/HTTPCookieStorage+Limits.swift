import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a server's cookies may cost a client, the same on both transports.
///
/// `HTTPCookieStorage` has no bound of its own: before these limits one response of 10,000
/// `Set-Cookie` fields took 5.8-6.8 s to store on FoundationNetworking's one work queue (every
/// request of the process waited for it), 15,000 stored cookies went out as a `Cookie` header of
/// 160,558 bytes on every request, and storing 8,000 into a storage of 7,000 took 20 s. The
/// numbers are libcurl's, which bounds cookies the same way since 7.84.0 (CVE-2022-32205), and
/// RFC 6265 §6.1's minimum for a storage.
package enum CookieLimits {
    /// The most cookies stored from one response head: 50. The rest of its `Set-Cookie` fields
    /// are ignored.
    package static let perResponse = 50
    /// The most cookies a storage is given by the transports: 3,000. A new cookie past it (one
    /// that does not replace a stored cookie of the same name, domain and path) is not stored.
    package static let stored = 3_000
    /// The most cookies sent on one request: 150.
    package static let sentPerRequest = 150
    /// The longest `Cookie` header sent, in bytes: 8,190. Servers refuse longer header lines
    /// (nginx's default limit is 8 KiB), so a longer one would fail every request to the host.
    package static let headerBytes = 8_190
}

extension HTTPCookieStorage {
    /// Stores the cookies of one response from `url`, within ``CookieLimits``: the first
    /// ``CookieLimits/perResponse`` of them, and no new one once the storage holds
    /// ``CookieLimits/stored``. The storage's own accept policy still applies.
    ///
    /// A value with a character outside ASCII is ignored: RFC 6265's grammar has none in a
    /// cookie's name or value, and Foundation's parser, which counts UTF-16 units where it
    /// means characters, cuts such a cookie wrong or traps (`Set-Cookie: 😀=`, "String index
    /// is out of bounds"), so a server could end the process. Over `URLSessionTransport` the
    /// fields come joined in one value, which is then ignored whole.
    ///
    /// - Parameter setCookieValues: The response's `Set-Cookie` field values: each on its own, or
    ///   joined with commas as `HTTPURLResponse` joins them (Foundation's parser tells a date's
    ///   comma from a separator).
    package func store(setCookieValues: [String], from url: URL) {
        var cookies: [HTTPCookie] = []
        for value in setCookieValues where cookies.count < CookieLimits.perResponse && value.utf8.allSatisfy({ $0 < 0x80 }) {
            cookies += HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
        }
        guard !cookies.isEmpty else { return }
        cookies = Array(cookies.prefix(CookieLimits.perResponse))
        let held = self.cookies ?? []
        if held.count + cookies.count > CookieLimits.stored {
            var room = CookieLimits.stored - held.count
            let replaced = Set(held.map(StoredName.init))
            cookies = cookies.filter { cookie in
                if replaced.contains(StoredName(cookie)) { return true }
                room -= 1
                return room >= 0
            }
        }
        setCookies(cookies, for: url, mainDocumentURL: url)
    }
}

/// What makes two cookies the same stored cookie (RFC 6265 §5.3 step 11).
private struct StoredName: Hashable {
    let name: String
    let domain: String
    let path: String

    init(_ cookie: HTTPCookie) {
        name = cookie.name
        domain = cookie.domain
        path = cookie.path
    }
}
