import Foundation

/// One parameter value sorted into the shapes the encoders write.
///
/// Both encoders classify values the same way, so a value that one accepts the other accepts
/// too, and numbers print identically on every platform (Swift's own shortest round-trip
/// formatting, never `NSNumber`'s locale- or platform-dependent one).
enum ParameterValue {
    case string(String)
    case bool(Bool)
    /// A number already formatted; both encoders refuse it when not `isFinite` (NaN, ±infinity).
    case number(String, isFinite: Bool)
    case null
    case array([Any])
    case dictionary([String: Any])
    case unsupported(type: String)

    init(_ value: Any) {
        // The most common types come first: every failed cast costs a runtime check.
        if let string = value as? String {
            self = .string(string)
        } else if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            // Before the native casts: on Apple platforms a boolean NSNumber also casts to Int.
            self = ParameterValue(number: number)
        } else if let int = value as? Int {
            self = .number(String(int), isFinite: true)
        } else if let bool = value as? Bool {
            self = .bool(bool)
        } else if let double = value as? Double {
            self = .number(double.description, isFinite: double.isFinite)
        } else if let container = ParameterValue(foundationContainer: value) {
            // Before the Swift container casts, which would bridge it whole (see below).
            self = container
        } else if let dictionary = value as? [String: Any] {
            self = .dictionary(dictionary)
        } else if let array = value as? [Any] {
            self = .array(array)
        } else if let optional = value as? any OptionalParameter {
            if let wrapped = optional.wrappedParameter {
                self = ParameterValue(wrapped)
            } else {
                self = .null
            }
        } else if let integer = value as? any BinaryInteger {
            self = .number(String(describing: integer), isFinite: true)
        } else if let float = value as? Float {
            self = .number(float.description, isFinite: float.isFinite)
        } else if let decimal = value as? Decimal {
            self = .number(decimal.description, isFinite: decimal.isFinite)
        } else if let substring = value as? Substring {
            self = .string(String(substring))
        } else if let character = value as? Character {
            self = .string(String(character))
        } else if let url = value as? URL {
            self = .string(url.absoluteString)
        } else if let uuid = value as? UUID {
            self = .string(uuid.uuidString)
        } else if value is NSNull {
            self = .null
        } else {
            self = .unsupported(type: String(describing: type(of: value)))
        }
    }

    /// An `NSArray` or `NSDictionary` (their mutable subclasses included) opened one level only;
    /// `nil` for any other value.
    ///
    /// On Linux, `as? [Any]` and `as? [String: Any]` bridge an NSArray or NSDictionary eagerly
    /// and recursively, before the encoders' depth check runs: an `NSMutableArray` holding
    /// itself, or 100,000 nested NSArrays, overflowed the stack (SIGSEGV). Opened here one level
    /// at a time, each level passes the depth check as a Swift container's does, so a cycle or
    /// deep nesting ends in ``ParameterEncodingError/nestingTooDeep(keyPath:limit:)``.
    init?(foundationContainer value: Any) {
        // The metatype check first: `value as? NSArray` would bridge a Swift array to one.
        let valueType = type(of: value)
        if valueType is NSArray.Type, let array = value as? NSArray {
            self = .array(FoundationContainer.elements(of: array))
        } else if valueType is NSDictionary.Type, let dictionary = value as? NSDictionary {
            guard let members = FoundationContainer.members(of: dictionary) else {
                // As a Swift dictionary whose keys are not strings: the container is refused.
                self = .unsupported(type: String(describing: valueType))
                return
            }
            self = .dictionary(members)
        } else {
            return nil
        }
    }

    private init(number: NSNumber) {
        switch NumberKind(number) {
        case .bool(let bool): self = .bool(bool)
        case .floating(let double): self = .number(double.description, isFinite: double.isFinite)
        case .unsigned(let unsigned): self = .number(String(unsigned), isFinite: true)
        case .signed(let signed): self = .number(String(signed), isFinite: true)
        }
    }
}

/// Reads the first level of an `NSArray` or `NSDictionary` without bridging the levels below.
///
/// On Linux, reading an element (`object(at:)`, iteration, `allObjects`) turns a nested NSArray
/// or NSDictionary into a Swift one, which bridges everything beneath it at once: a cycle or
/// 100,000 levels overflow the stack there. The containers' mirrors show what they store, the
/// nested containers as they are, so those are taken from the mirror and every other element
/// is read the usual way. On Apple platforms reading an element bridges nothing.
enum FoundationContainer {
    static func isContainer(_ value: Any) -> Bool {
        let valueType = type(of: value)
        return valueType is NSArray.Type || valueType is NSDictionary.Type
    }

    static func elements(of array: NSArray) -> [Any] {
        var elements: [Any] = []
        elements.reserveCapacity(array.count)
        #if !canImport(Darwin)
        let stored = Mirror(reflecting: array).children.map(\.value)
        // A subclass that keeps its elements elsewhere stores none: it is read as on Apple
        // platforms, element by element.
        if stored.count == array.count {
            for (index, element) in stored.enumerated() {
                elements.append(isContainer(element) ? element : array.object(at: index))
            }
            return elements
        }
        #endif
        for element in array { elements.append(element) }
        return elements
    }

    /// The members of `dictionary`, or `nil` when a key is not a string.
    static func members(of dictionary: NSDictionary) -> [String: Any]? {
        var members: [String: Any] = [:]
        members.reserveCapacity(dictionary.count)
        #if !canImport(Darwin)
        let stored = Mirror(reflecting: dictionary).children.compactMap { $0.value as? (key: NSObject, value: AnyObject) }
        if stored.count == dictionary.count {
            for (key, member) in stored {
                guard let name = key as? String else { return nil }
                members[name] = isContainer(member) ? member : dictionary.object(forKey: key)
            }
            return members
        }
        #endif
        for (key, member) in dictionary {
            guard let name = key as? String else { return nil }
            members[name] = member
        }
        return members
    }
}

/// Lets the encoders see through an `Optional` that arrives boxed as `any Sendable`.
///
/// Classification runs synchronously inside one encode call, so plain `Any` is enough here.
protocol OptionalParameter {
    var wrappedParameter: Any? { get }
}

extension Optional: OptionalParameter {
    var wrappedParameter: Any? {
        switch self {
        case .some(let value): return value
        case .none: return nil
        }
    }
}

/// A location inside nested parameters, rendered as `"user.tags[2]"` only when an error needs it.
struct ParameterKeyPath {
    private enum Component {
        case key(String)
        case index(Int)
    }

    /// The deepest nesting the encoders write, as `JSONSerialization`: they walk the parameters
    /// recursively, and ten thousand levels would overflow the stack.
    static let maximumDepth = 512

    private var components: [Component] = []

    mutating func push(key: String) { components.append(.key(key)) }
    mutating func push(index: Int) { components.append(.index(index)) }
    mutating func pop() { components.removeLast() }

    /// Throws ``ParameterEncodingError/nestingTooDeep(keyPath:limit:)`` when a container at the
    /// current location would be one level too many.
    func checkDepth() throws {
        guard components.count < Self.maximumDepth else {
            throw ParameterEncodingError.nestingTooDeep(keyPath: rendered, limit: Self.maximumDepth)
        }
    }

    var rendered: String {
        // A path hundreds of levels deep is shown by its ends, which say where it is.
        guard components.count > 12 else { return render(components[...]) }
        let omitted = components.count - 8
        return render(components.prefix(4)) + ".…(\(omitted) more)…." + render(components.suffix(4))
    }

    private func render(_ components: ArraySlice<Component>) -> String {
        var result = ""
        for component in components {
            switch component {
            case .key(let key):
                if !result.isEmpty { result += "." }
                result += key
            case .index(let index):
                result += "[\(index)]"
            }
        }
        return result
    }
}
