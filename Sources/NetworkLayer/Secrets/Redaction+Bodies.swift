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
    ///
    /// One pass from left to right, so the time grows with the length alone: the regular
    /// expression it replaces tried a match at every quote, escaped ones included, and took
    /// 28 s for 80 KB of `\"` that a server sent (found from outside, 2026-11-26). A string that
    /// is not a member's name gives its closing quote a chance to open the next one, as the
    /// expression did, so that a stray quote in prose does not hide the members after it.
    private func jsonLikeMembers(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "\"")) else { return text }
        var shown: [UInt8] = []
        var copied = 0
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) {
            let close = Self.endOfString(in: bytes, openingAt: open)
            guard close < bytes.count else { break }
            var after = Self.skippingBlanks(in: bytes, from: close + 1)
            guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else {
                index = close
                continue
            }
            after = Self.skippingBlanks(in: bytes, from: after + 1)
            let valueEnd = Self.endOfValue(in: bytes, from: after)
            guard valueEnd > after else {
                index = close
                continue
            }
            let name = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
            if hidesParameter(named: name) {
                shown += bytes[copied..<after]
                shown += Array("\"\(replacement)\"".utf8)
                copied = valueEnd
            }
            index = valueEnd
        }
        guard copied > 0 else { return text }
        shown += bytes[copied...]
        return String(decoding: shown, as: UTF8.self)
    }

    /// The index of the quote that closes the string opened at `open`, past escaped characters;
    /// `bytes.count` when none does.
    private static func endOfString(in bytes: [UInt8], openingAt open: Int) -> Int {
        var index = open + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return bytes.count
    }

    /// One past a member's value starting at `start`: a string (to the end of the text when it
    /// is not closed) or a run of anything but `,`, `}`, `]` and blanks.
    private static func endOfValue(in bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        if bytes[start] == UInt8(ascii: "\"") {
            return min(endOfString(in: bytes, openingAt: start) + 1, bytes.count)
        }
        var index = start
        while index < bytes.count, !",}] \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        return index
    }

    private static func skippingBlanks(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, " \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        return index
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
