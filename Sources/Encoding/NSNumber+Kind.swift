import Foundation

/// What an `NSNumber` holds, told by its Objective-C type code: the one place the package reads
/// it (the encoders' parameters, and `JSONValue` from JSONSerialization's output).
package enum NumberKind: Equatable, Sendable {
    case bool(Bool)
    case floating(Double)
    case unsigned(UInt64)
    case signed(Int64)

    package init(_ number: NSNumber) {
        // objCType is "c" for a boolean NSNumber on Linux and Apple platforms alike.
        switch String(cString: number.objCType) {
        case "c", "B": self = .bool(number.boolValue)
        case "d", "f": self = .floating(number.doubleValue)
        case "Q", "L", "I", "S", "C": self = .unsigned(number.uint64Value)
        default: self = .signed(number.int64Value)
        }
    }
}
