import Foundation

/// The directives of a `Cache-Control` header (RFC 9111 §5.2) that a private cache acts on.
///
/// Unknown directives are ignored (§5.2.3). Malformed values are read conservatively, so that a
/// server's mistake costs a request to the server, never a stale answer: a `max-age` that is not
/// a number, or that appears twice with different values, counts as `max-age=0`. A qualified
/// `no-cache="Set-Cookie"` counts as plain `no-cache`, and a qualified `private` as `private`.
struct CacheControl: Equatable, Sendable {
    /// `max-age`, in seconds, capped at 2³¹ as §1.2.2 asks.
    var maxAge: Int?
    /// `s-maxage`, parsed for completeness; a private cache ignores it (§5.2.2.10).
    var sharedMaxAge: Int?
    var noStore = false
    var noCache = false
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    /// RFC 8246: the body will not change while fresh, so a reload need not revalidate it.
    var immutable = false
    /// Request only: `max-stale`; `Int.max` when it has no value ("any staleness").
    var maxStale: Int?
    /// Request only: `min-fresh`.
    var minFresh: Int?
    /// Request only: `only-if-cached`.
    var onlyIfCached = false

    /// The largest delta-seconds a cache must handle (RFC 9111 §1.2.2).
    static let deltaSecondsLimit = 2_147_483_648

    init() {}

    /// Parses a header value; `nil` or an empty value gives no directive.
    init(_ headerValue: String?) {
        guard let headerValue, !headerValue.isEmpty else { return }
        for (name, value) in Self.directives(in: headerValue) {
            switch name {
            case "max-age":
                let seconds = Self.deltaSeconds(value) ?? 0
                maxAge = maxAge.map { $0 == seconds ? seconds : 0 } ?? seconds
            case "s-maxage":
                sharedMaxAge = Self.deltaSeconds(value) ?? 0
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate": mustRevalidate = true
            case "immutable": immutable = true
            case "only-if-cached": onlyIfCached = true
            case "max-stale":
                // Without a value, any staleness; with an unreadable one, none (the safe reading).
                maxStale = value == nil ? Int.max : Self.deltaSeconds(value) ?? 0
            case "min-fresh":
                // Unreadable: ask for the most freshness we could mean, i.e. validate.
                minFresh = Self.deltaSeconds(value) ?? Self.deltaSecondsLimit
            default:
                continue
            }
        }
    }

    /// A non-negative integer of at most 10 digits (a quoted one too, §5.2), capped at 2³¹.
    static func deltaSeconds(_ text: Substring?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // More digits than 2³¹ has: the cap, without parsing a number that may overflow.
        guard text.utf8.count <= 10, let value = Int(text) else { return deltaSecondsLimit }
        return min(value, deltaSecondsLimit)
    }

    /// `(lower-cased name, value)` pairs, values unquoted; commas inside quotes do not split.
    ///
    /// An unterminated quote ends the list: what follows it cannot be read reliably.
    static func directives(in header: String) -> [(String, Substring?)] {
        var result: [(String, Substring?)] = []
        var text = Substring(header)
        scan: while !text.isEmpty {
            text = text.drop(while: { $0 == " " || $0 == "\t" || $0 == "," })
            guard !text.isEmpty else { break }
            let nameEnd = text.firstIndex(where: { $0 == "=" || $0 == "," }) ?? text.endIndex
            let name = text[..<nameEnd].trimmingCharacters(in: .whitespaces).lowercased()
            text = text[nameEnd...]
            var value: Substring?
            if text.first == "=" {
                text = text.dropFirst().drop(while: { $0 == " " || $0 == "\t" })
                if text.first == "\"" {
                    guard let (unquoted, rest) = quotedString(text) else {
                        if !name.isEmpty { result.append((name, nil)) }
                        break scan
                    }
                    value = unquoted
                    text = rest
                } else {
                    let valueEnd = text.firstIndex(of: ",") ?? text.endIndex
                    value = Substring(text[..<valueEnd].trimmingCharacters(in: .whitespaces))
                    text = text[valueEnd...]
                }
            }
            if !name.isEmpty { result.append((name, value)) }
            // Anything between a quoted value and the next comma is junk; skip it.
            text = text[(text.firstIndex(of: ",") ?? text.endIndex)...]
        }
        return result
    }

    /// The content of a quoted-string at the start of `text` (escapes removed) and what follows
    /// its closing quote; `nil` when it is not closed.
    private static func quotedString(_ text: Substring) -> (Substring, Substring)? {
        var content = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index = text.index(after: index)
                guard index < text.endIndex else { return nil }
                content.append(text[index])
            } else if character == "\"" {
                return (Substring(content), text[text.index(after: index)...])
            } else {
                content.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }
}
