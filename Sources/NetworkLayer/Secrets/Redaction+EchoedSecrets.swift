import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Redaction {
    /// `text` with every secret of `request` in it replaced: the values of its credential
    /// headers (a token after its scheme too: `Bearer abc` and `abc`, and each cookie's value)
    /// and of its secret query parameters, decoded and as sent. For what a server sends back
    /// about a request, such as an error message that repeats the token it refused. Values
    /// shorter than four characters are left, since they would match ordinary text.
    func hidingSecrets(of request: URLRequest, in text: String) -> String {
        var secrets: [String] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] where isCredentialHeader(name) {
            secrets.append(value)
            if let space = value.firstIndex(of: " ") { secrets.append(String(value[value.index(after: space)...])) }
            if name.lowercased() == "cookie" {
                for pair in value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { secrets.append(String(pair[pair.index(after: equals)...])) }
                }
            }
        }
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            secrets += secretParameterValues(in: components)
        }
        var shown = text
        // Longest first, so that `Bearer abc` goes whole rather than leaving `Bearer `.
        for secret in Set(secrets.map { $0.trimmingCharacters(in: .whitespaces) }).sorted(by: { $0.count > $1.count })
        where secret.count >= 4 {
            shown = shown.replacingOccurrences(of: secret, with: replacement)
        }
        return shown
    }

    /// The values of the secret parameters of `components`: its query's, decoded, and as sent
    /// (percent-encoded) in its query and in a fragment of `name=value` pairs (`#access_token=…`,
    /// see ``url(_:)``). A server that repeats the request target repeats `k%2By%3D`, not `k+y=`.
    func secretParameterValues(in components: URLComponents) -> [String] {
        var values = (components.queryItems ?? []).filter { hidesParameter(named: $0.name) }.compactMap(\.value)
        for part in [components.percentEncodedQuery, components.percentEncodedFragment].compactMap({ $0 }) {
            for pair in part.split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1)
                if halves.count == 2, hidesParameter(named: String(halves[0]).removingPercentEncoding ?? String(halves[0])) {
                    values.append(String(halves[1]))
                }
            }
        }
        return values
    }
}
