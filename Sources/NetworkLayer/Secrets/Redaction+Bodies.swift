import Foundation

extension Redaction {
    /// A body as it may be shown, with the values of secret fields replaced: a form body's
    /// fields (``formBody(_:)``), and a JSON body's object members at any depth, by the names
    /// of ``queryParameters`` (`{"access_token": "<redacted>"}`). A JSON body is recognised by
    /// its content, whatever its `Content-Type` says, since error bodies are often mislabelled;
    /// it is shown as it is when it holds no secret, and re-serialised with sorted keys when a
    /// value was replaced. Any other text has `name=value` pairs redacted as a form's would be,
    /// and `"name": value` members as a JSON object's would be: JSON that does not parse whole
    /// (behind a byte-order mark, cut at a limit, one object per line) still holds them.
    func body(_ data: Data, contentType: String?) -> String {
        let text = String(decoding: data, as: UTF8.self)
        if let contentType, contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            return formBody(text)
        }
        if let json = jsonBody(data) { return json ?? text }
        return jsonLikeMembers(formBody(text))
    }

    /// `text` with the value of every `"name": value` whose name is secret replaced, a string
    /// value even when its closing quote is missing (a body cut short).
    private func jsonLikeMembers(_ text: String) -> String {
        let pattern = #""((?:[^"\\]|\\.)*)"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^,}\]\s]+)"#
        guard text.contains("\""), let expression = try? NSRegularExpression(pattern: pattern) else { return text }
        let whole = text as NSString
        var shown = ""
        var copied = 0
        for match in expression.matches(in: text, range: NSRange(location: 0, length: whole.length)) {
            guard hidesParameter(named: whole.substring(with: match.range(at: 1))) else { continue }
            let value = match.range(at: 3)
            shown += whole.substring(with: NSRange(location: copied, length: value.location - copied))
            shown += "\"\(replacement)\""
            copied = value.location + value.length
        }
        return copied == 0 ? text : shown + whole.substring(from: copied)
    }

    /// For a JSON object or array: `.some(nil)` when it holds no secret member, else the body
    /// re-serialised with those members replaced; `nil` when `data` is not such JSON.
    private func jsonBody(_ data: Data) -> String?? {
        guard let first = data.first(where: { !" \t\r\n".utf8.contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        var replaced = false
        let redacted = redactingMembers(of: value, replaced: &replaced)
        guard replaced else { return .some(nil) }
        guard let bytes = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return .some(replacement) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func redactingMembers(of value: Any, replaced: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, member) in object {
                if hidesParameter(named: key) {
                    copy[key] = replacement
                    replaced = true
                } else {
                    copy[key] = redactingMembers(of: member, replaced: &replaced)
                }
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map { redactingMembers(of: $0, replaced: &replaced) }
        }
        return value
    }
}
