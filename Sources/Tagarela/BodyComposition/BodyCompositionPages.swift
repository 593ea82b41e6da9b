import Foundation
import GRDB
import HTTPServer

/// The results fragment the form's script puts in place.
struct FragmentResults: PageModel {
    let results: ResultsView?
}
