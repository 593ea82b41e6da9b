import Foundation
import GRDB
import HTTPServer

struct FHIRTokensPage: PageModel {
    struct Row: PageModel {
        let label: String
        let clinician: String
        let created: String
        let lastUsed: String?
        let revoked: String?
        let revokeURL: String?
    }

    let tokens: [Row]
    let hasTokens: Bool
    let clinicians: [SelectOption]
    let issued: String?
    let form: FormState
    let issueURL: String
    let metadataURL: String
    let csrf: String

    init(tokens: [FHIRTokens.Listed], clinicians: [User], issued: String?, form: FormState, context: RequestContext) {
        self.tokens = tokens.map { listed in
            Row(label: listed.token.label, clinician: listed.clinicianName, created: context.format.shortDate(listed.token.createdAt),
                lastUsed: listed.token.lastUsedAt.map(context.format.shortDate), revoked: listed.token.revokedAt.map(context.format.shortDate),
                revokeURL: listed.token.revokedAt == nil ? FHIREndpoints.revokeToken.path(listed.token.id!) : nil)
        }
        hasTokens = !tokens.isEmpty
        self.clinicians = clinicians.map { SelectOption(value: String($0.id!), label: $0.displayName, isSelected: form["clinician"] == String($0.id!)) }
        self.issued = issued
        self.form = form
        issueURL = FHIREndpoints.issueToken.path()
        metadataURL = context.configuration.linkBase + FHIREndpoints.metadata.path()
        csrf = context.csrfToken
    }
}
