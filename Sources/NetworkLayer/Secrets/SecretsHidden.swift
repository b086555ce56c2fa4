import Foundation

/// An error whose text held a secret: what is left of it once that is hidden. A decoder's own
/// error keeps its type (``in(_:with:)``); another error (one that a type's `init(from:)` threw,
/// quoting what it read) cannot be rewritten and is replaced by this.
struct SecretsHidden: Error, CustomStringConvertible {
    let description: String

    /// `error` with `hide` applied to its text: a `DecodingError` rewritten in place, another
    /// error replaced when its text holds something `hide` hides, and left as it is otherwise.
    static func `in`(_ error: any Error, with hide: (String) -> String) -> any Error {
        if let decoding = error as? DecodingError { return decoding.hidingSecrets(with: hide) }
        let text = "\(error)"
        let shown = hide(text)
        return shown == text ? error : SecretsHidden(description: shown)
    }
}

extension DecodingError {
    /// This error with `hide` applied to what it quotes from the body: its description and the
    /// keys of its coding path (a key that `hide` leaves as it is stays the caller's own). An
    /// underlying error whose text `hide` would change is left out, since it cannot be rewritten.
    ///
    /// For a decoder that reads what a server sent back, which may repeat a secret of the request
    /// (a token in an echoed URL).
    func hidingSecrets(with hide: (String) -> String) -> DecodingError {
        func shown(_ key: any CodingKey) -> any CodingKey {
            let text = hide(key.stringValue)
            return text == key.stringValue ? key : ShownKey(stringValue: text, intValue: key.intValue)
        }
        func shown(_ context: Context) -> Context {
            let underlying = context.underlyingError.flatMap { error in hide("\(error)") == "\(error)" ? error : nil }
            return Context(
                codingPath: context.codingPath.map(shown), debugDescription: hide(context.debugDescription),
                underlyingError: underlying)
        }
        switch self {
        case .typeMismatch(let type, let context): return .typeMismatch(type, shown(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, shown(context))
        case .keyNotFound(let key, let context): return .keyNotFound(shown(key), shown(context))
        case .dataCorrupted(let context): return .dataCorrupted(shown(context))
        @unknown default: return self
        }
    }
}

/// A coding key whose text had a secret hidden.
private struct ShownKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    init(stringValue: String) {
        self.init(stringValue: stringValue, intValue: nil)
    }

    init(intValue: Int) {
        self.init(stringValue: String(intValue), intValue: intValue)
    }
}
