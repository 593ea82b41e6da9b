import Foundation
import GRDB
import HTTPServer

struct CodePage: PageModel {
    let form: FormState
    let actionURL = TwoFactorEndpoints.checkCode.path()
    let loginURL = AccountsEndpoints.showLogin.path()
}

struct SetupPage: PageModel {
    let enabled: Bool
    let pending: Bool
    let required: Bool
    /// The secret as an app takes it by hand, in groups of four, and the `otpauth://` address.
    let secret: String
    let uri: String
    let recoveryCodes: [String]
    let showsRecoveryCodes: Bool
    let recoveryLeft: String
    let form: FormState
    let beginURL = TwoFactorEndpoints.begin.path()
    let confirmURL = TwoFactorEndpoints.confirm.path()
    let disableURL = TwoFactorEndpoints.disable.path()
    let accountURL = AccountsEndpoints.showAccount.path()

    init(user: User, state: TwoFactorStore.State?, required: Bool, recoveryCodes: [String], form: FormState, context: RequestContext) {
        enabled = state?.enabled == true
        pending = state != nil && !enabled
        self.required = required
        let secretText = state.map { TOTP.base32($0.secret) } ?? ""
        secret = stride(from: 0, to: secretText.count, by: 4).map { start in
            let from = secretText.index(secretText.startIndex, offsetBy: start)
            return String(secretText[from..<(secretText.index(from, offsetBy: 4, limitedBy: secretText.endIndex) ?? secretText.endIndex)])
        }.joined(separator: " ")
        uri = state.map { TOTP.provisioningURI(secret: $0.secret, account: user.username ?? user.displayName, issuer: "Tagarela") } ?? ""
        self.recoveryCodes = recoveryCodes
        showsRecoveryCodes = !recoveryCodes.isEmpty
        recoveryLeft = context.t("twofactor_recovery_left", ["count": "\(state?.recoveryCodesLeft ?? 0)"])
        self.form = form
    }
}

struct PolicyPage: PageModel {
    struct Choice: PageModel {
        let name: String
        let label: String
        let isOn: Bool
    }

    let choices: [Choice]
    let actionURL = TwoFactorEndpoints.setPolicy.path()

    init(required: Set<Role>, context: RequestContext) {
        choices = TwoFactorStore.staffRoles.map {
            Choice(name: "role_\($0.rawValue)", label: context.t["role_\($0.rawValue)"], isOn: required.contains($0))
        }
    }
}
