import Foundation

extension Redaction {
    /// A `multipart/form-data` body (RFC 7578) with the content of every part whose field name
    /// is secret replaced: `name="password"` shows `<redacted>` as a form field of that name
    /// would. `nil` when `contentType` is not multipart with a boundary.
    ///
    /// Linear in the body: one split on the delimiter, and one look at each part's head.
    func multipartBody(_ text: String, contentType: String) -> String? {
        guard let boundary = Self.boundary(of: contentType) else { return nil }
        let delimiter = "--" + boundary
        var parts = text.components(separatedBy: delimiter)
        guard parts.count > 1 else { return nil }
        for index in parts.indices.dropFirst() {
            guard let secret = secretContent(of: parts[index]) else { continue }
            parts[index].replaceSubrange(secret, with: replacement)
        }
        return parts.joined(separator: delimiter)
    }

    /// The contents of the secret parts of a `multipart/form-data` body, for a server that
    /// repeats them (``secretsSent(in:)``); none when `contentType` is not multipart.
    func secretPartValues(in body: Data, contentType: String?) -> [String] {
        guard let contentType, let boundary = Self.boundary(of: contentType) else { return [] }
        let parts = String(decoding: body, as: UTF8.self).components(separatedBy: "--" + boundary)
        return parts.dropFirst().compactMap { part in secretContent(of: part).map { String(part[$0]) } }
    }

    /// Where the content of `part` (the text between two delimiters) is, when its field name is
    /// secret: after its head's blank line, up to the line break before the next delimiter.
    private func secretContent(of part: String) -> Range<String.Index>? {
        guard let headEnd = part.range(of: "\r\n\r\n") ?? part.range(of: "\n\n"),
            let name = Self.fieldName(in: part[..<headEnd.lowerBound]), hidesParameter(named: name)
        else { return nil }
        let content = part[headEnd.upperBound...]
        // `\r\n` is one `Character`, as `\n` is.
        let end = content.hasSuffix("\r\n") || content.hasSuffix("\n") ? part.index(before: part.endIndex) : part.endIndex
        return headEnd.upperBound..<max(headEnd.upperBound, end)
    }

    /// The `boundary` parameter of a `multipart/form-data` media type, unquoted.
    private static func boundary(of contentType: String) -> String? {
        let parameters = Self.parameters(contentType)
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        guard let boundary = Self.value(of: "boundary", in: parameters.dropFirst()), !boundary.isEmpty else { return nil }
        return boundary
    }

    /// The field name of a part: the `name` parameter of its `Content-Disposition` (not its
    /// `filename`, which may itself hold `; name=` in its quotes).
    private static func fieldName(in head: Substring) -> String? {
        for line in head.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", maxSplits: 1)
            guard fields.count == 2, HeaderName.same(fields[0].trimmingCharacters(in: .whitespaces), "Content-Disposition") else {
                continue
            }
            return value(of: "name", in: parameters(fields[1]).dropFirst())
        }
        return nil
    }

    /// `text` split at the semicolons outside quoted strings, each piece trimmed.
    private static func parameters(_ text: some StringProtocol) -> [String] {
        var pieces: [String] = []
        var current = ""
        var isQuoted = false
        var isEscaped = false
        for character in text {
            if isEscaped {
                isEscaped = false
            } else if isQuoted, character == "\\" {
                isEscaped = true
            } else if character == "\"" {
                isQuoted.toggle()
            } else if character == ";", !isQuoted {
                pieces.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            }
            current.append(character)
        }
        pieces.append(current.trimmingCharacters(in: .whitespaces))
        return pieces
    }

    /// The value of the parameter `name` (`name="value"`, `name = value`), unquoted.
    private static func value(of name: String, in parameters: some Sequence<String>) -> String? {
        for parameter in parameters {
            let halves = parameter.split(separator: "=", maxSplits: 1)
            guard halves.count == 2, halves[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = halves[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}
