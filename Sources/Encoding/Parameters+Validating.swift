import Foundation

extension Dictionary where Key == String, Value == any Sendable {
    /// Converts a `[String: Any]` (from `JSONSerialization`, Objective-C, or code written for
    /// Moya and Alamofire) into ``Parameters``, checking every value on the way.
    ///
    /// `Parameters` holds `any Sendable` so that endpoints can cross concurrency domains, and
    /// `Any` cannot be cast to it; this walks the dictionary once and rebuilds it from the
    /// values it knows:
    ///
    /// - what `JSONSerialization` produces: `String`, `NSNumber` (a boolean one becomes `Bool`,
    ///   a floating-point one `Double`, others `Int` or, beyond `Int`, `UInt64`), `NSNull`,
    ///   and arrays and dictionaries of these, Swift's or `NSArray` and `NSDictionary`;
    /// - Swift's `Bool`, integers of every width, `Double`, `Float` and `Decimal`, kept as they are;
    /// - `Substring` and `Character` (as `String`), `URL` and `UUID` (kept; both encoders write
    ///   their string forms);
    /// - `Optional`: its value, or `nil`, as `NSNull` is. Both encoders write `nil` as JSON's
    ///   `null` and leave it out of a query (``URLParameterEncoder/NilEncoding``).
    ///
    /// ```swift
    /// let legacy = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    /// let parameters = try Parameters(validating: legacy)
    /// // .requestParameters(bodyParameters: parameters, bodyEncoding: .json, urlParameters: nil)
    /// ```
    ///
    /// - Throws: ``ParameterEncodingError`` naming the key path of the first value it cannot
    ///   take (keys in sorted order, so the same dictionary always names the same value):
    ///   ``ParameterEncodingError/unsupportedValue(keyPath:type:)`` for any other type (`Date`,
    ///   `Data`, a custom class, a dictionary whose keys are not strings),
    ///   ``ParameterEncodingError/invalidJSONValue(keyPath:reason:)`` for NaN and infinities,
    ///   ``ParameterEncodingError/nestingTooDeep(keyPath:limit:)`` beyond 512 levels, which is
    ///   also what an `NSArray` or `NSDictionary` that contains itself gives.
    public init(validating dictionary: [String: Any]) throws(ParameterEncodingError) {
        var path = ParameterKeyPath()
        do {
            self = try LegacyParameters.dictionary(dictionary, at: &path)
        } catch let error as ParameterEncodingError {
            throw error
        } catch {
            // Every throw below is a ParameterEncodingError; checkDepth() is declared untyped.
            throw .invalidJSONValue(keyPath: path.rendered, reason: "\(error)")
        }
    }
}

extension Array where Element == any Sendable {
    /// Converts an `[Any]` into `[any Sendable]` with the same checks as
    /// ``Swift/Dictionary/init(validating:)``, for ``JSONParameterEncoder/encode(urlRequest:withJSONArray:)``.
    ///
    /// ```swift
    /// let items = try [any Sendable](validating: legacyArray)
    /// ```
    ///
    /// - Throws: ``ParameterEncodingError`` naming the first value it cannot take, as `"[2].price"`.
    public init(validating array: [Any]) throws(ParameterEncodingError) {
        var path = ParameterKeyPath()
        do {
            self = try LegacyParameters.array(array, at: &path)
        } catch let error as ParameterEncodingError {
            throw error
        } catch {
            throw .invalidJSONValue(keyPath: path.rendered, reason: "\(error)")
        }
    }
}

/// The walk behind `init(validating:)`: one recursion per level of nesting, bounded by
/// ``ParameterKeyPath/maximumDepth`` as the encoders are.
private enum LegacyParameters {
    static func dictionary(_ dictionary: [String: Any], at path: inout ParameterKeyPath) throws -> Parameters {
        try path.checkDepth()
        var result: Parameters = [:]
        result.reserveCapacity(dictionary.count)
        for key in dictionary.keys.sorted() {
            path.push(key: key)
            // `dictionary[key]` is `Any?`: a stored `nil` arrives as `.some(nil)`.
            if let value = dictionary[key] { result[key] = try convert(value, at: &path) }
            path.pop()
        }
        return result
    }

    static func array(_ array: [Any], at path: inout ParameterKeyPath) throws -> [any Sendable] {
        try path.checkDepth()
        var result: [any Sendable] = []
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            path.push(index: index)
            result.append(try convert(element, at: &path))
            path.pop()
        }
        return result
    }

    static func convert(_ value: Any, at path: inout ParameterKeyPath) throws -> any Sendable {
        // The order of ParameterValue: the common types first, NSNumber before the native
        // casts (a boolean NSNumber also casts to Int on Apple platforms).
        if let string = value as? String { return string }
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber { return try self.number(number, at: path) }
        if let int = value as? Int { return int }
        if let bool = value as? Bool { return bool }
        if let double = value as? Double { return try finite(double, double.isFinite, at: path) }
        // An NSArray or NSDictionary before the Swift casts, which bridge it whole and
        // recursively on Linux: a cyclic or very deep one overflowed the stack.
        switch ParameterValue(foundationContainer: value) {
        case .array(let elements): return try array(elements, at: &path)
        case .dictionary(let members): return try dictionary(members, at: &path)
        case .unsupported(let type): throw ParameterEncodingError.unsupportedValue(keyPath: path.rendered, type: type)
        default: break
        }
        if let nested = value as? [String: Any] { return try dictionary(nested, at: &path) }
        if let nested = value as? [Any] { return try array(nested, at: &path) }
        if let optional = value as? any OptionalParameter {
            guard let wrapped = optional.wrappedParameter else { return String?.none }
            return try convert(wrapped, at: &path)
        }
        if value is NSNull { return String?.none }
        if let integer = fixedWidthInteger(value) { return integer }
        if let float = value as? Float { return try finite(float, float.isFinite, at: path) }
        if let decimal = value as? Decimal { return try finite(decimal, decimal.isFinite, at: path) }
        if let substring = value as? Substring { return String(substring) }
        if let character = value as? Character { return String(character) }
        if let url = value as? URL { return url }
        if let uuid = value as? UUID { return uuid }
        throw ParameterEncodingError.unsupportedValue(keyPath: path.rendered, type: String(describing: type(of: value)))
    }

    /// Integers of every width but `Int`, which `convert` takes first.
    private static func fixedWidthInteger(_ value: Any) -> (any Sendable)? {
        switch value {
        case let value as Int8: return value
        case let value as Int16: return value
        case let value as Int32: return value
        case let value as Int64: return value
        case let value as UInt: return value
        case let value as UInt8: return value
        case let value as UInt16: return value
        case let value as UInt32: return value
        case let value as UInt64: return value
        default: return nil
        }
    }

    private static func number(_ number: NSNumber, at path: ParameterKeyPath) throws -> any Sendable {
        // NumberKind is the one rule the encoders use too, so a number converted here is
        // written as it would have been without the conversion.
        switch NumberKind(number) {
        case .bool(let bool): return bool
        case .floating(let double): return try finite(double, double.isFinite, at: path)
        case .unsigned(let unsigned): return Int(exactly: unsigned) ?? unsigned
        case .signed(let signed): return Int(exactly: signed) ?? signed
        }
    }

    private static func finite<Number: Sendable>(_ value: Number, _ isFinite: Bool, at path: ParameterKeyPath) throws -> any Sendable {
        guard isFinite else {
            throw ParameterEncodingError.nonFiniteNumber("\(value)", at: path)
        }
        return value
    }
}
