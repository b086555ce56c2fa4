/// A `206` response's `Content-Range: bytes FIRST-LAST/LENGTH` (RFC 9110 §14.4), as a download
/// reads it: where the part starts, where it ends, and the length of the whole file (`nil` for
/// `*`).
struct ContentRange: Equatable, Sendable {
    let first: Int64
    let last: Int64
    let length: Int64?

    /// `nil` unless `value` is a byte range whose last byte is not before its first (and not
    /// `Int64.max`, so that one past it can be counted).
    init?(_ value: String?) {
        // Range units are compared case-insensitively (RFC 9110 §14.1).
        guard let value, value.prefix(6).lowercased() == "bytes " else { return nil }
        let parts = value.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first, last < .max else {
            return nil
        }
        self.first = first
        self.last = last
        if parts[1] == "*" {
            length = nil
        } else if let length = Int64(parts[1]), length > last {
            self.length = length
        } else {
            return nil
        }
    }

    /// Whether this part ends the file: its last byte is the file's last.
    var endsTheFile: Bool { length == last + 1 }
}
