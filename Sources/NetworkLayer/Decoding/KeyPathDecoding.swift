import Foundation

/// Decodes the value that sits under a key path such as `"data.items"` or `"results.0.title"`
/// in one pass of the caller's `JSONDecoder`, walking down with the decoder's own containers.
///
/// Moya finds the value with `NSDictionary.value(forKeyPath:)` and writes it back out with
/// `JSONSerialization` before decoding it: twice the work, `Any` on the way, and numbers that
/// come back changed (`1.0` becomes `1`). Here nothing is parsed twice, and the decoder's
/// strategies (dates, data, keys) apply to the value as they would at the top level.
///
/// The path reaches the decoder through a task-local value rather than the decoder's
/// `userInfo`: the caller's `JSONDecoder` may be shared by concurrent tasks, and must not be
/// changed under them.
struct KeyPathDecoding {
    /// One step of a key path.
    enum Component: Equatable, CustomStringConvertible {
        /// A member of an object; also an index, when the value turns out to be an array and
        /// the key is a number (`"items.0"`).
        case key(String)
        /// An element of an array, written `[2]`.
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): return key
            case .index(let index): return "[\(index)]"
            }
        }
    }

    let components: [Component]
    /// The decoder's key strategy: a path written as the server spells its keys
    /// (`"total_results"`) still matches keys the strategy converts (`totalResults`).
    let keyStrategy: JSONDecoder.KeyDecodingStrategy

    @TaskLocal static var current: KeyPathDecoding?

    /// Splits `"data.items[0].title"` into its steps.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the path, for an empty path, an empty
    ///   step (`"a..b"`) or a bracket that is not `[digits]`.
    static func parse(_ path: String) throws -> [Component] {
        var components: [Component] = []
        for part in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let key = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(key.count)
            if !key.isEmpty { components.append(.key(String(key))) }
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                    let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
                else {
                    throw invalidPath(path, "\"\(part)\" has a bracket that is not an index such as [0]")
                }
                components.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
            if key.isEmpty && part.isEmpty {
                throw invalidPath(path, "it has an empty key")
            }
        }
        return components
    }

    private static func invalidPath(_ path: String, _ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "The key path \"\(path)\" is not valid: \(reason)."))
    }

    /// Decodes `Value` at `components` below `decoder`.
    func decode<Value: Decodable>(_ type: Value.Type, from decoder: any Decoder) throws -> Value {
        var current = decoder
        for component in components {
            current = try step(into: component, of: current)
        }
        // Through a container, not `Value(from:)`: JSONDecoder applies its date, data and URL
        // strategies only to values it is asked for.
        return try current.singleValueContainer().decode(Value.self)
    }

    /// The decoder of the value one step down.
    private func step(into component: Component, of decoder: any Decoder) throws -> any Decoder {
        switch component {
        case .index(let index):
            return try element(index, of: decoder)
        case .key(let name):
            let members: KeyedDecodingContainer<JSONKey>
            do {
                members = try decoder.container(keyedBy: JSONKey.self)
            } catch {
                // "items.0" on an array is an index.
                if let index = Int(name), index >= 0, (try? decoder.unkeyedContainer()) != nil {
                    return try element(index, of: decoder)
                }
                throw error
            }
            guard let key = matchingKey(name, in: members) else {
                throw DecodingError.keyNotFound(
                    JSONKey(name),
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "No value at \"\(name)\" of the key path \(pathDescription)."))
            }
            // superDecoder(forKey:) would hand a missing key over as null; the key is known here.
            return try members.superDecoder(forKey: key)
        }
    }

    private func element(_ index: Int, of decoder: any Decoder) throws -> any Decoder {
        var elements = try decoder.unkeyedContainer()
        if let count = elements.count, index >= count {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                DecodingError.Context(
                    codingPath: decoder.codingPath + [JSONKey(intValue: index)],
                    debugDescription: "The key path \(pathDescription) asks for element \(index) of an array of \(count)."))
        }
        for _ in 0..<index {
            _ = try elements.decode(Skipped.self)
        }
        return try elements.superDecoder()
    }

    /// The key of `members` that `name` means: itself, or its conversion by the key strategy.
    private func matchingKey(_ name: String, in members: KeyedDecodingContainer<JSONKey>) -> JSONKey? {
        let exact = JSONKey(name)
        if members.contains(exact) { return exact }
        let converted: String
        switch keyStrategy {
        case .useDefaultKeys:
            return nil
        case .convertFromSnakeCase:
            converted = Self.camelCase(fromSnakeCase: name)
        case .custom(let convert):
            converted = convert(members.codingPath + [exact]).stringValue
        @unknown default:
            return nil
        }
        let key = JSONKey(converted)
        return converted != name && members.contains(key) ? key : nil
    }

    private var pathDescription: String {
        "\"" + components.map(\.description).joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "\""
    }

    /// `"total_results"` as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` documents
    /// it: words after the first capitalized, underscores between words removed, leading and
    /// trailing underscores kept.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        guard let last = key.lastIndex(where: { $0 != "_" }) else { return key }
        let core = key[first...last]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = words.enumerated().map { offset, word in
            offset == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }.joined()
        return String(key[..<first]) + joined + String(key[key.index(after: last)...])
    }
}

/// Passes over an array element without reading it.
private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// The top-level value that walks a ``KeyPathDecoding`` to the requested value.
struct KeyPathValue<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        guard let path = KeyPathDecoding.current else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "No key path was given for \(Value.self)."))
        }
        value = try path.decode(Value.self, from: decoder)
    }
}
