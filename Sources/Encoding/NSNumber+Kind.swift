import Foundation

/// What an `NSNumber` holds: the one place the package reads it (the encoders' parameters,
/// `Parameters(validating:)`, and `JSONValue` from JSONSerialization's output).
package enum NumberKind: Equatable, Sendable {
    case bool(Bool)
    case floating(Double)
    case unsigned(UInt64)
    case signed(Int64)

    package init(_ number: NSNumber) {
        // A boolean is told by its class, not its type code: `NSNumber(value: true)` and
        // `NSNumber(value: Int8(65))` both report objCType "c" on Linux and Apple platforms, and
        // taking "c" for a boolean wrote the Int8 65 as `true`. Booleans are the shared
        // CFBoolean/__NSCFBoolean instances, whose class no integer NSNumber has.
        if ObjectIdentifier(type(of: number)) == Self.booleanClass {
            self = .bool(number.boolValue)
            return
        }
        switch String(cString: number.objCType) {
        // "B" is C's _Bool, which only a boolean produces.
        case "B": self = .bool(number.boolValue)
        case "d", "f": self = .floating(number.doubleValue)
        case "Q", "L", "I", "S", "C": self = .unsigned(number.uint64Value)
        default: self = .signed(number.int64Value)
        }
    }

    /// The class of the boolean NSNumbers that `true as NSNumber`, `NSNumber(value:)` and
    /// JSONSerialization produce.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
}
