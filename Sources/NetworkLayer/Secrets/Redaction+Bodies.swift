import Foundation

extension Redaction {
    /// A body as it may be shown, with the values of secret fields replaced: a form body's
    /// fields (``formBody(_:)``), a `multipart/form-data` body's parts, and a JSON body's object
    /// members at any depth, by the names of ``queryParameters``
    /// (`{"access_token": "<redacted>"}`). A JSON body is recognised by
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
        if let contentType, let shown = multipartBody(text, contentType: contentType) {
            // A part that is not secret may still hold secret members (GraphQL's `operations`).
            return jsonLikeMembers(formBody(shown))
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
    ///
    /// Over Unicode scalars, with the expression's rules: blanks are Unicode white space, and a
    /// backslash before a line break escapes nothing, so the string ends there unclosed.
    private func jsonLikeMembers(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains("\"") else { return text }
        var shown = String.UnicodeScalarView()
        var copied = 0
        var index = 0
        while let open = scalars[index...].firstIndex(of: "\"") {
            let name = Self.string(in: scalars, openingAt: open)
            guard name.isClosed else {
                // A line break after a backslash ends a name; the next quote may open another.
                guard name.end < scalars.count else { break }
                index = name.end + 1
                continue
            }
            var after = Self.skippingBlanks(in: scalars, from: name.end + 1)
            guard after < scalars.count, scalars[after] == ":" else {
                index = name.end
                continue
            }
            after = Self.skippingBlanks(in: scalars, from: after + 1)
            let valueEnd = Self.endOfValue(in: scalars, from: after)
            guard valueEnd > after else {
                index = name.end
                continue
            }
            if hidesParameter(named: String(String.UnicodeScalarView(scalars[(open + 1)..<name.end]))) {
                // A secret's object or array goes whole (`"token": ["abc"]`).
                let end = scalars[after] == "{" || scalars[after] == "[" ? Self.endOfContainer(in: scalars, from: after) : valueEnd
                shown.append(contentsOf: scalars[copied..<after])
                shown.append(contentsOf: "\"\(replacement)\"".unicodeScalars)
                copied = end
                index = end
                continue
            }
            index = valueEnd
        }
        guard copied > 0 else { return text }
        shown.append(contentsOf: scalars[copied...])
        return String(shown)
    }

    /// Where the string opened at `open` ends: at its closing quote (`isClosed`), at a backslash
    /// followed by a line break, or at the end of the text.
    private static func string(in scalars: [Unicode.Scalar], openingAt open: Int) -> (end: Int, isClosed: Bool) {
        var index = open + 1
        while index < scalars.count {
            switch scalars[index] {
            case "\"":
                return (index, true)
            case "\\":
                guard index + 1 < scalars.count, !isLineBreak(scalars[index + 1]) else { return (index, false) }
                index += 2
            default:
                index += 1
            }
        }
        return (scalars.count, false)
    }

    /// One past a member's value starting at `start`: a string (closed, or cut short by the end
    /// of the text or by a backslash before a line break), the opening `{` or `[` of an object or
    /// an array (whose members are read next, so that a nested `"password"` is found), or a run
    /// of anything but `,`, `}`, `]` and white space.
    private static func endOfValue(in scalars: [Unicode.Scalar], from start: Int) -> Int {
        guard start < scalars.count else { return start }
        if scalars[start] == "{" || scalars[start] == "[" { return start + 1 }
        if scalars[start] == "\"" {
            let value = string(in: scalars, openingAt: start)
            return value.isClosed ? value.end + 1 : value.end
        }
        var index = start
        while index < scalars.count, !",}]".unicodeScalars.contains(scalars[index]), !scalars[index].properties.isWhitespace {
            index += 1
        }
        return index
    }

    /// One past the `}` or `]` that closes the object or array opened at `start`, strings
    /// skipped; the end of the text when it is not closed (a body cut short).
    private static func endOfContainer(in scalars: [Unicode.Scalar], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "{", "[":
                depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return index + 1 }
            case "\"":
                let string = string(in: scalars, openingAt: index)
                index = string.isClosed ? string.end : string.end - 1
            default:
                break
            }
            index += 1
        }
        return scalars.count
    }

    private static func skippingBlanks(in scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        return index
    }

    /// The line terminators of a regular expression's `.`, which an escape does not take.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// For a JSON object or array: `.some(nil)` when it holds no secret member, else the body
    /// re-serialised with those members replaced; `nil` when `data` is not such JSON.
    private func jsonBody(_ data: Data) -> String?? {
        guard let value = Self.jsonContainer(data) else { return nil }
        var replaced = false
        let redacted = redactingMembers(of: value, replaced: &replaced)
        guard replaced else { return .some(nil) }
        guard let bytes = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return .some(replacement) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `data` parsed, when it is a JSON object or array (after white space); `nil` otherwise.
    static func jsonContainer(_ data: Data) -> Any? {
        guard let first = data.first(where: { !" \t\r\n".utf8.contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        return try? JSONSerialization.jsonObject(with: data)
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
