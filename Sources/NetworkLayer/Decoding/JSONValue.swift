import Foundation

/// A JSON document as a `Sendable` Swift value: what ``Response/mapJSON(failsOnEmptyData:)``
/// returns where Moya returns `Any`.
///
/// `Any` cannot cross a concurrency domain in Swift 6, and `JSONSerialization`'s `NSNumber`
/// hides whether `true` was a boolean or the number 1. This enum keeps both apart, and keeps
/// whole numbers exact up to `Int64` (JSON ids beyond 2⁵³ survive, where a `Double` would
/// round them).
///
/// ```swift
/// let json = try await router.request(.popular(page: 1)).mapJSON()
/// let title = json["results"]?[0]?["title"]?.stringValue
/// let legacy = json.foundationObject as? [String: Any]   // for code written against Moya
/// ```
///
/// It is `Codable`: decode it from any part of a body (`response.map(JSONValue.self, atKeyPath: "meta")`)
/// or send it as a body (``HTTPTask/requestJSONEncodable(_:encoder:)``).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that is whole and fits `Int64`: `1`, and also `1.0` and `1e2`, which
    /// `JSONDecoder` reads as whole numbers.
    case integer(Int64)
    /// Any other number: `1.5`, `1e-7`, `18446744073709551615`.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys are unordered; a key given twice keeps one of its values.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The value for `key` when this is an object; `nil` otherwise or when the key is absent.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array and the index is in range; `nil` otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The string, when this is one.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// The boolean, when this is one (numbers are not booleans here).
    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The number as an `Int`, when it is whole and fits.
    public var intValue: Int? {
        switch self {
        case .integer(let integer): return Int(exactly: integer)
        case .double(let double): return Int(exactly: double)
        default: return nil
        }
    }

    /// The number as a `Double` (an `Int64` beyond 2⁵³ is rounded), when this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .double(let double): return double
        default: return nil
        }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let array) = self else { return nil }
        return array
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The value as `JSONSerialization` would give it (`NSNull`, `Bool`, `Int64`, `Double`,
    /// `String`, `[Any]`, `[String: Any]`), for code written against Moya's `mapJSON()`, which
    /// casts to `[String: Any]`. Not `Sendable`: use it where it is made.
    public var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .integer(let integer): return integer
        case .double(let double): return double
        case .string(let string): return string
        case .array(let array): return array.map(\.foundationObject)
        case .object(let object): return object.mapValues(\.foundationObject)
        }
    }
}

extension JSONValue: Codable {
    /// Reads any JSON value. Nesting is bounded by the decoder (`JSONDecoder` stops at 512
    /// levels), so a hostile body cannot exhaust the stack.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a number that fits neither `Int64` nor
    ///   `Double` (`1e400`), and whatever the decoder throws for a nested value.
    public init(from decoder: any Decoder) throws {
        // Scalars first, through a single-value container: a failed attempt costs one thrown
        // error and reads no nested value. Containers are opened only once a scalar did not
        // match, and their elements are decoded with `try`, so an error deep inside keeps its
        // own coding path instead of becoming "not an object".
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
            return
        }
        if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
            return
        }
        if let string = try? single.decode(String.self) {
            self = .string(string)
            return
        }
        if let integer = try? single.decode(Int64.self) {
            self = .integer(integer)
            return
        }
        let numberError: any Error
        do {
            self = .double(try single.decode(Double.self))
            return
        } catch {
            numberError = error
        }
        if var elements = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            if let count = elements.count { array.reserveCapacity(count) }
            while !elements.isAtEnd {
                array.append(try elements.decode(JSONValue.self))
            }
            self = .array(array)
            return
        }
        if let members = try? decoder.container(keyedBy: JSONKey.self) {
            var object: [String: JSONValue] = [:]
            for key in members.allKeys {
                object[key.stringValue] = try members.decode(JSONValue.self, forKey: key)
            }
            self = .object(object)
            return
        }
        // Neither a scalar nor a container: a number out of every range.
        throw numberError
    }

    /// Writes the value as it is.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in object { try container.encode(value, forKey: JSONKey(key)) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .integer(let integer):
            var container = encoder.singleValueContainer()
            try container.encode(integer)
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        }
    }
}

extension JSONValue {
    /// Parses a JSON document with `JSONSerialization`, which is several times faster here than
    /// the `Decodable` path (that one throws an error for each type a value is not; measured
    /// 7× slower for 1,000 objects), and converts what it gives. Nesting stops at 512 levels in
    /// `JSONSerialization` itself, so the conversion's recursion is bounded.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with `JSONSerialization`'s error, which says where
    ///   the document broke ("around character 7").
    init(parsing data: Data) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch let error as NSError {
            let detail = error.userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON. \(detail)", underlyingError: error))
        }
        self = Self(foundationValue: object)
    }

    /// What `JSONSerialization` produces, as a value of this enum; numbers as the `Decodable`
    /// path reads them (a whole `Double` within `Int64` is an integer).
    private init(foundationValue object: Any) {
        // Swift's own types first: on Linux a cast of a dictionary to a class (`NSNumber`,
        // `NSNull`) bridges it first and costs about 4 µs, 40 times a cast to a Swift type.
        if let string = object as? String {
            self = .string(string)
        } else if let object = object as? [String: Any] {
            self = .object(object.mapValues(Self.init(foundationValue:)))
        } else if let array = object as? [Any] {
            self = .array(array.map(Self.init(foundationValue:)))
        } else if let number = object as? NSNumber {
            self = Self(number: number)
        } else {
            self = .null
        }
    }

    private init(number: NSNumber) {
        switch NumberKind(number) {
        case .bool(let bool): self = .bool(bool)
        case .floating(let double): self = Int64(exactly: double).map { .integer($0) } ?? .double(double)
        case .unsigned(let unsigned): self = Int64(exactly: unsigned).map { .integer($0) } ?? .double(Double(unsigned))
        case .signed(let signed): self = .integer(signed)
        }
    }
}

/// A coding key made of any string or index: the members of a ``JSONValue`` object, and the
/// components of a key path.
struct JSONKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
