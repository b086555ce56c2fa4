import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Redaction {
    /// `text` with every secret of `request` in it replaced: the values of its credential
    /// headers (a token after its scheme too: `Bearer abc` and `abc`, and each cookie's value),
    /// of its secret query parameters and of its body's secret fields (a form's or a JSON
    /// object's, by the same names), decoded and as sent, and its URL's password with the Basic
    /// credential made of it. For what a server sends back about a request, such as an error
    /// message that repeats the token it refused. Values shorter than four characters are
    /// left, since they would match ordinary text.
    func hidingSecrets(of request: URLRequest, in text: String) -> String {
        hiding(secretsSent(in: request), in: text)
    }

    /// The secrets of `request` that ``hidingSecrets(of:in:)`` hides, longest first, to be found
    /// once and hidden in many texts (``hiding(_:in:)``): finding them parses the body. With
    /// those of `added`, the headers a transport put on the wire besides the request's own
    /// (both count: a session may replace the request's `Cookie` with its storage's).
    func secretsSent(in request: URLRequest, addedHeaders added: HTTPHeaders = [:]) -> [String] {
        var secrets: [String] = []
        let headers = (request.allHTTPHeaderFields ?? [:]).map { ($0, $1) } + added.map { ($0, $1) }
        for (name, value) in headers where isCredentialHeader(name) {
            secrets.append(value)
            if let space = value.firstIndex(of: " ") { secrets.append(String(value[value.index(after: space)...])) }
            if HeaderName.same(name, "Cookie") {
                for pair in value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { secrets.append(String(pair[pair.index(after: equals)...])) }
                }
            }
        }
        if let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            secrets += secretParameterValues(in: components)
            if let password = components.password {
                secrets.append(password)
                let credential = "\(components.user ?? ""):\(password)"
                secrets.append(Data(credential.utf8).base64EncodedString())
            }
        }
        if let body = request.httpBody {
            secrets += secretFieldValues(in: body)
            secrets += secretPartValues(in: body, contentType: request.value(forHTTPHeaderField: "Content-Type"))
        }
        // Longest first, so that `Bearer abc` goes whole rather than leaving `Bearer `.
        return Set(secrets.map { $0.trimmingCharacters(in: .whitespaces) }).filter { $0.count >= 4 }.sorted { $0.count > $1.count }
    }

    /// `text` with each of `secrets` (``secretsSent(in:)``) replaced.
    func hiding(_ secrets: [String], in text: String) -> String {
        var shown = text
        for secret in secrets {
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

    /// The values of the secret fields of a request body: a JSON object's members at any depth
    /// (strings and numbers), or else a form's `name=value` pairs, decoded and as sent. A
    /// server that echoes a login form repeats its password.
    func secretFieldValues(in body: Data) -> [String] {
        guard !body.isEmpty else { return [] }
        if let value = Self.jsonContainer(body) {
            var values: [String] = []
            collectSecretMembers(of: value, into: &values)
            return values
        }
        var values: [String] = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1)
            guard halves.count == 2 else { continue }
            // Names are read as the form's redaction reads them (``formBody(_:)``).
            guard hidesParameter(named: String(halves[0]).removingPercentEncoding ?? String(halves[0])) else { continue }
            let sent = String(halves[1])
            values.append(sent)
            if let decoded = sent.replacingOccurrences(of: "+", with: " ").removingPercentEncoding { values.append(decoded) }
        }
        return values
    }

    private func collectSecretMembers(of value: Any, into values: inout [String]) {
        if let object = value as? [String: Any] {
            for (key, member) in object {
                if hidesParameter(named: key) {
                    if let text = member as? String {
                        values.append(text)
                    } else if let number = member as? NSNumber {
                        values.append(number.stringValue)
                    }
                } else {
                    collectSecretMembers(of: member, into: &values)
                }
            }
        } else if let array = value as? [Any] {
            for element in array { collectSecretMembers(of: element, into: &values) }
        }
    }
}
