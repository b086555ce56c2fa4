import Foundation

extension Redaction {
    /// A `multipart/form-data` body (RFC 7578) with the content of every part whose field name
    /// is secret replaced: `name="password"` shows `<redacted>` as a form field of that name
    /// would. `nil` when `contentType` is not multipart with a boundary.
    ///
    /// Linear in the body: one split on the delimiter, and a bounded look at each part's head.
    func multipartBody(_ text: String, contentType: String) -> String? {
        guard let boundary = Self.boundary(of: contentType) else { return nil }
        let delimiter = "--" + boundary
        var parts = text.components(separatedBy: delimiter)
        guard parts.count > 1 else { return nil }
        for index in parts.indices.dropFirst() {
            let part = parts[index]
            guard let headEnd = part.range(of: "\r\n\r\n") ?? part.range(of: "\n\n"),
                let name = Self.fieldName(in: part[..<headEnd.lowerBound]), hidesParameter(named: name)
            else { continue }
            // The content ends at the line break before the next delimiter, which stays.
            let lineBreak = part.hasSuffix("\r\n") ? "\r\n" : part.hasSuffix("\n") ? "\n" : ""
            parts[index] = part[..<headEnd.upperBound] + replacement + lineBreak
        }
        return parts.joined(separator: delimiter)
    }

    /// The `boundary` parameter of a `multipart/form-data` media type, unquoted.
    private static func boundary(of contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() where parameter.lowercased().hasPrefix("boundary=") {
            let value = parameter.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The field name of a part: the `name` parameter of its `Content-Disposition` (not its
    /// `filename`).
    private static func fieldName(in head: Substring) -> String? {
        for line in head.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", maxSplits: 1)
            guard fields.count == 2, fields[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else {
                continue
            }
            for parameter in fields[1].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
            where parameter.lowercased().hasPrefix("name=") {
                return parameter.dropFirst("name=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
