import Foundation

/// Why a payment or refund was refused. Every refusal leaves the database unchanged.
public enum PaymentError: PizzeriaFailure, Equatable {
    /// The order is cancelled: it takes no payment.
    case orderCancelled(Order.ID)
    /// The order owes nothing more (`state` says why).
    case nothingDue(order: Order.ID, state: PaymentState)
    /// No order of the party (its first order's id) owes anything.
    case partyNothingDue(party: Order.ID)
    /// More than the order's balance; overpaying is not recorded (refund instead of paying twice).
    case overBalance(order: Order.ID, amount: Money, balance: Money)
    /// The reference was recorded for another order or another amount.
    case referenceUsed(reference: String, order: Order.ID)
    /// Nothing paid is left to refund.
    case nothingToRefund(order: Order.ID)
    /// Nothing was given back on the order: there is no refund document.
    case nothingRefunded(order: Order.ID)
    /// More than what is left of its payments.
    case refundTooLarge(order: Order.ID, amount: Money, refundable: Money)
    /// A paid order needs a reason to be cancelled.
    case reasonRequired(order: Order.ID, kept: Money)

    /// How front ends treat it: every case is refused by the current state (exit 1).
    public var category: FailureCategory { .refused }

    /// The refusal in the domain's words.
    public var description: String {
        switch self {
        case .orderCancelled(let id): "order \(id.short) is cancelled: a cancelled order takes no payment"
        case .nothingDue(let id, let state):
            "order \(id.short) owes nothing: it is \(state.rawValue.replacingOccurrences(of: "_", with: " "))"
        case .partyNothingDue(let id): "the party of order \(id.short) owes nothing: every order of it is paid"
        case .overBalance(let id, let amount, let balance):
            "amount: \(amount.formatted) is more than the \(balance.formatted) order \(id.short) still owes"
        case .referenceUsed(let reference, let id):
            "reference: '\(reference)' is already recorded, for order \(id.short) with another amount or order"
        case .nothingToRefund(let id): "order \(id.short) has nothing paid left to refund"
        case .nothingRefunded(let id): "nothing was given back on order \(id.short): there is no refund document"
        case .refundTooLarge(let id, let amount, let refundable):
            "amount: \(amount.formatted) is more than the \(refundable.formatted) left to refund of order \(id.short)"
        case .reasonRequired(let id, let kept):
            "reason: order \(id.short) is paid (\(kept.formatted)); cancelling it needs a reason, and it then owes a refund"
        }
    }
}
