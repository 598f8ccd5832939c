#include "app/sandboxactions.h"

#include "app/consolecontext.h"
#include "client/providers/sandboxregistry.h"
#include "models/sandboxlistmodel.h"
#include "widgets/common/icons.h"
#include "widgets/common/userprompts.h"
#include "widgets/dialogs/newsandboxdialog.h"
#include "widgets/sandboxlist/sandboxlistview.h"

#include <QAction>
#include <QShortcut>
#include <QTimer>

#include <utility>

namespace sbx {

namespace {

// Lifecycle actions' icons (resources/icons).
constexpr std::pair<LifecycleAction, const char *> kLifecycleIcons[] = {
    {LifecycleAction::Start, "start"},   {LifecycleAction::Pause, "pause"},
    {LifecycleAction::Resume, "resume"}, {LifecycleAction::Stop, "stop"},
    {LifecycleAction::Delete, "delete"}, {LifecycleAction::Logs, "logs"},
};

QIcon lifecycleIcon(LifecycleAction action) {
    for (const auto &[which, name] : kLifecycleIcons) {
        if (which == action)
            return Icons::icon(QString::fromLatin1(name));
    }
    return {};
}

} // namespace

using namespace Qt::StringLiterals;

SandboxActions::SandboxActions(ConsoleContext *context, SandboxListView *list, QWidget *window)
    : QObject(window)
    , m_context(context)
    , m_list(list)
    , m_window(window)
    , m_new(new QAction(tr("&New sandbox…"), this)) {
    m_new->setShortcut(QKeySequence(u"Ctrl+Shift+N"_s));
    m_new->setToolTip(
        tr("Create a sandbox on this machine or in a container engine (Ctrl+Shift+N)"));
    m_new->setIcon(Icons::icon(u"new-sandbox"_s));
    connect(m_new, &QAction::triggered, this, &SandboxActions::newSandbox);

    struct Spec {
        LifecycleAction action;
        const char *text;
        const char *key; // active while the list has focus: the terminal needs its keys
        const char *tip;
    };
    const Spec specs[] = {
        {LifecycleAction::Start, QT_TR_NOOP("S&tart"), "Ctrl+Return",
         QT_TR_NOOP("Start the selected sandboxes")},
        {LifecycleAction::Pause, QT_TR_NOOP("&Pause"), "Ctrl+P",
         QT_TR_NOOP("Freeze the sandbox and every process in it")},
        {LifecycleAction::Resume, QT_TR_NOOP("Res&ume"), "Ctrl+U",
         QT_TR_NOOP("Let a paused sandbox run again")},
        {LifecycleAction::Stop, QT_TR_NOOP("St&op"), "Ctrl+.",
         QT_TR_NOOP("Stop the selected sandboxes; their shutdown hooks run first")},
        {LifecycleAction::Delete, QT_TR_NOOP("&Delete"), "Del",
         QT_TR_NOOP("Stop and delete (or forget) the selected")},
        {LifecycleAction::Logs, QT_TR_NOOP("&Logs"), "Ctrl+L",
         QT_TR_NOOP("Show the sandbox's server or container log")},
    };
    for (const Spec &spec : specs) {
        auto *a = new QAction(tr(spec.text), this);
        a->setIcon(lifecycleIcon(spec.action));
        const QKeySequence key(QString::fromLatin1(spec.key));
        a->setToolTip(
            tr("%1 (%2, in the list)").arg(tr(spec.tip), key.toString(QKeySequence::NativeText)));
        // A shortcut of the list itself: an action's widget-context shortcut never fired
        // (the action also lives in the toolbar and menu), and window-wide keys would take
        // Delete or Ctrl+L from the tabs.
        auto *shortcut = new QShortcut(key, m_list, nullptr, nullptr, Qt::WidgetShortcut);
        shortcut->setWhatsThis(tr(spec.tip));
        connect(shortcut, &QShortcut::activated, a, [a] {
            if (a->isEnabled())
                a->trigger();
        });
        const LifecycleAction which = spec.action;
        connect(a, &QAction::triggered, this, [this, which] { perform(which); });
        m_actions.append({which, a});
    }
    const QList<SandboxProvider *> providers = context->registry()->providers();
    for (SandboxProvider *provider : providers) {
        // A provider may name its sandbox before the list has its row: announce it (and show
        // its key) once the row is there.
        connect(provider, &SandboxProvider::created, this, [this](const QString &id) {
            m_pending = id;
            announcePending();
        });
    }
    connect(context->sandboxList(), &QAbstractItemModel::rowsInserted, this,
            &SandboxActions::announcePending);
    update();
}

QAction *SandboxActions::action(LifecycleAction which) const {
    for (const auto &[a, act] : m_actions) {
        if (a == which)
            return act;
    }
    return nullptr;
}

QList<QAction *> SandboxActions::lifecycleActions() const {
    QList<QAction *> out;
    for (const auto &pair : m_actions)
        out << pair.second;
    return out;
}

LifecycleActions SandboxActions::allowed(const QString &id) const {
    return m_context->registry()->actions(id);
}

void SandboxActions::update() {
    const QStringList ids = m_list->selectedIds();
    for (const auto &[which, act] : m_actions) {
        bool any = false;
        for (const QString &id : ids)
            any = any || allowed(id).testFlag(which);
        // Logs are one sandbox's; the others act on the whole selection.
        if (which == LifecycleAction::Logs)
            any = ids.size() == 1 && any;
        act->setEnabled(any);
    }
}

QString SandboxActions::confirmation(LifecycleAction which, const QStringList &ids) const {
    QStringList lines;
    for (const QString &id : ids) {
        const SandboxEntry entry = m_context->registry()->entry(id);
        QString what = u"• "_s + entry.name;
        if (which == LifecycleAction::Delete) {
            if (const SandboxProvider *provider = m_context->registry()->providerOf(id))
                what += u": "_s + provider->deleteEffect(entry);
        }
        lines << what;
    }
    const bool one = ids.size() == 1;
    const QString head =
        which == LifecycleAction::Delete
            ? (one ? tr("Delete this sandbox? This cannot be undone.")
                   : tr("Delete these %1 sandboxes? This cannot be undone.").arg(ids.size()))
            : (one ? tr("Stop this sandbox? Their shutdown hooks run, then every process in "
                        "them ends.")
                   : tr("Stop these %1 sandboxes? Their shutdown hooks run, then every process "
                        "in them ends.")
                         .arg(ids.size()));
    return head + u"\n\n"_s + lines.join(QLatin1Char('\n'));
}

void SandboxActions::perform(LifecycleAction which) {
    QStringList ids;
    const QStringList selected = m_list->selectedIds();
    for (const QString &id : selected) {
        if (allowed(id).testFlag(which))
            ids << id;
    }
    if (ids.isEmpty())
        return;
    if (which == LifecycleAction::Logs) {
        Q_EMIT logsRequested(ids.first());
        return;
    }
    if (which == LifecycleAction::Delete || which == LifecycleAction::Stop) {
        const QString title = which == LifecycleAction::Delete ? tr("Delete") : tr("Stop");
        const QString text = confirmation(which, ids);
        if (!m_context->prompts()->confirm(m_window, title, text, title))
            return;
    }
    for (const QString &id : std::as_const(ids)) {
        if (SandboxProvider *provider = m_context->registry()->providerOf(id))
            provider->perform(id, which);
    }
    update();
}

void SandboxActions::newSandbox() {
    NewSandboxDialog dialog(u"sandbox-%1"_s.arg(m_context->sandboxList()->rowCount() + 1),
                            m_context->registry()->providers(), m_window);
    if (dialog.exec() == QDialog::Accepted)
        create(dialog.request());
}

void SandboxActions::create(const NewSandboxRequest &r) {
    const QList<SandboxProvider *> providers = m_context->registry()->providers();
    SandboxProvider *provider = nullptr;
    for (SandboxProvider *p : providers) {
        if (!p->createForm().label.isEmpty() &&
            (r.providerId.isEmpty() || p->id() == r.providerId)) {
            provider = p;
            break;
        }
    }
    if (!provider)
        return;
    // A key that lives on in the sandbox: the user gets to copy it once.
    m_showKey =
        provider->createForm().showsKeyOnce && r.options.auth == SandboxCreateOptions::Auth::ApiKey;
    const QString id = provider->create(r.options);
    if (!id.isEmpty()) {
        m_showKey = false;
        Q_EMIT created(id);
    }
}

void SandboxActions::announcePending() {
    if (m_pending.isEmpty() || m_context->sandboxList()->rowOf(m_pending) < 0)
        return;
    const QString id = std::exchange(m_pending, {});
    // Not inside the model's signal: selecting and a modal dialog belong to the next turn.
    QTimer::singleShot(0, this, [this, id, showKey = std::exchange(m_showKey, false)] {
        Q_EMIT created(id);
        if (showKey)
            showNewKey(id);
    });
}

void SandboxActions::showNewKey(const QString &id) {
    const SandboxEntry entry = m_context->registry()->entry(id);
    if (entry.credentials.kind != Credentials::Kind::ApiKey || entry.credentials.secret.isEmpty())
        return;
    m_context->prompts()->showSecret(
        m_window, tr("API key of %1").arg(entry.name),
        tr("The sandbox “%1” accepts this API key (header X-AIO-API-Key or Bearer). The console "
           "keeps it in the keychain and uses it itself; this is the only time it is shown.")
            .arg(entry.name),
        entry.credentials.secret);
}

} // namespace sbx
