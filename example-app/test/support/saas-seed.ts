/**
 * A small deterministic data set for the SaaS fixture (test/fixtures/saas): every model has rows,
 * every relation is used both ways (self-relations nested two deep, both many-to-manys, optional
 * relations set and empty), keys hold text that must be encoded, BigInt ids pass 2^53. The view
 * is created here, as a user's migration would: Prisma does not manage views.
 */
import { Prisma, type PrismaClient } from '#fixtures/saas/prisma/client.js'
import { TEST_DATABASE } from './harness.js'

/** The SaaS fixture's client, as each test file imports it. */
type SaasClient = PrismaClient

const day = (n: number, hour = 0) => new Date(Date.UTC(2024, 0, n, hour))

/** Users' ids: cuid-like, and one that needs encoding in an IRI. */
const USERS = ['ckuser0ann', 'ckuser0bob', 'ckuser0cy', 'user/ünï 4'] as const
const TEAMS = [
  '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
  '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b',
] as const

/**
 * The view `team_stats`: members per team. MySQL's tooling, which cannot tell a view from a model
 * in the schema, made a table of that name first.
 */
async function createTeamStatsView(prisma: SaasClient): Promise<void> {
  const mysql = TEST_DATABASE === 'mysql'
  const quote = (name: string) => (mysql ? `\`${name}\`` : `"${name}"`)
  if (mysql) await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${quote('team_stats')}`)
  await prisma.$executeRawUnsafe(
    `CREATE VIEW ${quote('team_stats')} AS SELECT ${quote('team_id')}, COUNT(*) AS ${quote('members')} FROM ${quote('team_members')} GROUP BY ${quote('team_id')}`
  )
}

export async function seedSaas(prisma: SaasClient): Promise<void> {
  await createTeamStatsView(prisma)
  const [ann, bob, cy, odd] = USERS
  const [acme, globex] = TEAMS
  await prisma.user.createMany({
    data: [
      { id: ann, email: 'ann@acme.test', name: 'Ann', emailVerified: day(2), createdAt: day(1) },
    ],
  })
  await prisma.user.createMany({
    data: [
      { id: bob, email: 'bob@acme.test', name: 'Bob', invitedById: ann, createdAt: day(3) },
      { id: cy, email: 'cy@globex.test', invitedById: ann, createdAt: day(4) },
      { id: odd, email: 'odd@acme.test', name: 'Ödd; =x', invitedById: bob, createdAt: day(5) },
    ],
  })
  await prisma.account.createMany({
    data: [
      { userId: ann, type: 'oauth', provider: 'github', providerAccountId: '1001', expiresAt: 1 },
      { userId: ann, type: 'oauth', provider: 'google', providerAccountId: 'ann@x;y=z' },
      { userId: bob, type: 'oauth', provider: 'github', providerAccountId: '1002' },
    ],
  })
  await prisma.session.createMany({
    data: [
      { sessionToken: 'sess-1', userId: ann, expires: day(30) },
      { sessionToken: 'sess/2 é', userId: bob, expires: day(31) },
    ],
  })
  await prisma.verificationToken.createMany({
    data: [
      { identifier: 'ann@acme.test', token: 'vt-1', expires: day(2) },
      { identifier: 'cy@globex.test', token: 'vt-2', expires: day(3) },
    ],
  })
  await prisma.authenticator.createMany({
    data: [
      {
        credentialID: 'cred-1',
        userId: ann,
        providerAccountId: 'pa-1',
        credentialPublicKey: 'pk1',
        counter: 0,
        credentialDeviceType: 'singleDevice',
        credentialBackedUp: false,
      },
      {
        credentialID: 'cred/2',
        userId: bob,
        providerAccountId: 'pa-2',
        credentialPublicKey: 'pk2',
        counter: 7,
        credentialDeviceType: 'multiDevice',
        credentialBackedUp: true,
        transports: 'usb,nfc',
      },
    ],
  })
  await prisma.password.createMany({
    data: [
      { userId: ann, hash: '$2a$10$ann' },
      { userId: bob, hash: '$2a$10$bob' },
    ],
  })
  await prisma.userImage.createMany({
    data: [
      {
        id: 'ckimg1',
        contentType: 'image/png',
        blob: new Uint8Array([137, 80, 78, 71]),
        userId: ann,
        createdAt: day(2),
      },
    ],
  })
  await prisma.connection.createMany({
    data: [
      { id: 'ckconn1', providerName: 'github', providerId: '1001', userId: ann, createdAt: day(2) },
    ],
  })
  await prisma.team.createMany({
    data: [
      { id: acme, name: 'Acme', slug: 'acme', domain: 'acme.test', createdAt: day(1) },
      { id: globex, name: 'Globex', slug: 'globex', defaultRole: 'ADMIN', createdAt: day(2) },
    ],
  })
  await prisma.teamMember.createMany({
    data: [
      { teamId: acme, userId: ann, role: 'OWNER', createdAt: day(1) },
      { teamId: acme, userId: bob, createdAt: day(3) },
      { teamId: acme, userId: odd, role: 'ADMIN', createdAt: day(5) },
      { teamId: globex, userId: cy, role: 'OWNER', createdAt: day(4) },
    ],
  })
  await prisma.invitation.createMany({
    data: [
      {
        id: 'a0a0a0a0-0000-4000-8000-000000000001',
        teamId: acme,
        email: 'dee@acme.test',
        token: 'inv-1',
        expires: day(9),
        invitedById: ann,
      },
      {
        id: 'a0a0a0a0-0000-4000-8000-000000000002',
        teamId: globex,
        token: 'inv-2',
        expires: day(9),
        invitedById: cy,
        sentViaEmail: false,
      },
    ],
  })
  await prisma.apiKey.createMany({
    data: [
      {
        id: 'ckkey1',
        name: 'CI',
        teamId: acme,
        hashedKey: 'h1',
        createdAt: day(1),
        expiresAt: day(60),
      },
      {
        id: 'ckkey2',
        name: 'Local',
        teamId: acme,
        hashedKey: 'h2',
        createdAt: day(2),
        lastUsedAt: day(3),
      },
    ],
  })
  await prisma.apiKeyUsage.createMany({
    data: [
      { apiKeyId: 'ckkey1', day: day(1), requests: 120 },
      { apiKeyId: 'ckkey1', day: day(2), requests: 80 },
      { apiKeyId: 'ckkey2', day: day(2), requests: 3 },
      { apiKeyId: 'ckkey1', day: day(3), requests: 0 },
    ],
  })
  await prisma.plan.createMany({
    data: [
      { id: 'FREE', name: 'Free', priceCents: 0, features: { seats: 1 } },
      { id: 'PRO', name: 'Pro', priceCents: 1250, features: { seats: 10, sso: false } },
      { id: 'ENTERPRISE', name: 'Enterprise', priceCents: 99999, features: ['sso', 'audit'] },
    ],
  })
  await prisma.price.createMany({
    data: [
      { id: 'price_pro_m', planId: 'PRO', amount: '12.50', currency: 'usd', interval: 'month' },
      { id: 'price_pro_y', planId: 'PRO', amount: '120', currency: 'usd', interval: 'year' },
      { id: 'price_ent', planId: 'ENTERPRISE', amount: '999.99', currency: 'eur' },
    ],
  })
  await prisma.subscription.createMany({
    data: [
      {
        id: 'sub_1',
        customerId: 'cus_1',
        teamId: acme,
        planId: 'PRO',
        status: 'ACTIVE',
        startDate: day(1),
        endDate: day(31),
      },
      {
        id: 'sub_2',
        customerId: 'cus_2',
        teamId: globex,
        planId: 'FREE',
        status: 'CANCELED',
        startDate: day(2),
        endDate: day(20),
        cancelAt: day(20),
      },
    ],
  })
  await prisma.auditLog.createMany({
    data: [1n, 9007199254740993n, 9007199254740994n, 9223372036854775807n].map((id, index) => ({
      id,
      teamId: acme,
      actorId: index === 0 ? null : ann,
      action: `member.${index}`,
      crud: 'c',
      at: day(index + 1),
      // A payload, a JSON null (served as null, like the database's), and none.
      ...(index === 1
        ? { payload: { role: 'ADMIN' } }
        : index === 2
          ? { payload: Prisma.JsonNull }
          : {}),
    })),
  })
  await prisma.webhook.createMany({
    data: [
      {
        id: 'b0b0b0b0-0000-4000-8000-000000000001',
        teamId: acme,
        url: 'https://acme.test/hook',
        events: 'member.created',
        secret: new Uint8Array([1, 2, 255]),
      },
      {
        id: 'b0b0b0b0-0000-4000-8000-000000000002',
        teamId: globex,
        url: 'https://globex.test/hook',
        events: 'member.removed',
      },
    ],
  })
  await prisma.file.createMany({
    data: [
      {
        id: 'c0c0c0c0-0000-4000-8000-000000000001',
        userId: ann,
        name: 'big.bin',
        type: 'application/octet-stream',
        key: 'k1',
        size: 5_000_000_000n,
        createdAt: day(3),
      },
      {
        id: 'c0c0c0c0-0000-4000-8000-000000000002',
        userId: bob,
        name: 'a.txt',
        type: 'text/plain',
        key: 'k2',
        size: 12n,
        checksum: new Uint8Array([0xde, 0xad]),
        createdAt: day(4),
      },
    ],
  })
  await prisma.dailyStats.createMany({
    data: [1, 2, 3, 4].map((id) => ({
      id,
      date: day(id),
      totalViews: id * 10,
      userCount: id,
      totalRevenue: id * 1.5,
      totalProfit: id * 0.25,
    })),
  })
  await prisma.pageViewSource.createMany({
    data: [
      { date: day(1), name: 'google', visitors: 5, dailyStatsId: 1 },
      { date: day(1), name: 'direct', visitors: 3, dailyStatsId: 1 },
      { date: day(2), name: 'news.ycombinator.com/item?id=1', visitors: 9, dailyStatsId: 2 },
      { date: day(3, 12), name: 'twitter', visitors: 1 },
    ],
  })
  await prisma.contactFormMessage.createMany({
    data: [
      {
        id: 'd0d0d0d0-0000-4000-8000-000000000001',
        content: 'Hello',
        userId: bob,
        createdAt: day(3),
      },
      {
        id: 'd0d0d0d0-0000-4000-8000-000000000002',
        content: 'Invoice?',
        userId: cy,
        createdAt: day(4),
        isRead: true,
        repliedAt: day(5),
      },
    ],
  })
  await prisma.tag.createMany({
    data: [
      { id: 1, name: 'ai' },
      { id: 2, name: 'prod' },
      { id: 3, name: 'unused' },
    ],
  })
  const projects = [
    {
      id: 'ckproj1',
      teamId: acme,
      name: 'Chatbot',
      createdAt: day(1),
      metadata: { tier: 'gold' },
      tags: [1, 2],
    },
    {
      id: 'ckproj2',
      teamId: acme,
      name: 'Old bot',
      createdAt: day(2),
      deletedAt: day(9),
      retentionDays: 30,
      tags: [1],
    },
    { id: 'ckproj3', teamId: globex, name: 'Search', createdAt: day(3), tags: [] },
  ]
  for (const { tags, ...project } of projects) {
    await prisma.project.create({
      data: { ...project, tags: { connect: tags.map((id) => ({ id })) } },
    })
  }
  await prisma.traceSession.createMany({
    data: [
      { id: 'sess-a', projectId: 'ckproj1', createdAt: day(1) },
      { id: 'sess/b', projectId: 'ckproj1', createdAt: day(2), bookmarked: true },
    ],
  })
  await prisma.trace.createMany({
    data: [1, 2, 3, 4, 5].map((n) => ({
      id: `cktrace${n}`,
      timestamp: day(1, n),
      name: n === 5 ? null : `chat-${n}`,
      projectId: n === 5 ? 'ckproj2' : 'ckproj1',
      sessionId: n <= 2 ? 'sess-a' : n === 3 ? 'sess/b' : null,
      sessionProjectId: n <= 3 ? 'ckproj1' : null,
      ...(n === 1
        ? { input: { messages: [{ role: 'user', content: 'hi' }] }, output: 'hello' }
        : {}),
      bookmarked: n === 2,
    })),
  })
  const observation = (
    id: number,
    traceId: string,
    parent: number | null,
    type: 'SPAN' | 'GENERATION' | 'EVENT'
  ) => ({
    id: `ckobs${id}`,
    traceId,
    type,
    startTime: day(1, id),
    endTime: type === 'EVENT' ? null : day(1, id + 1),
    totalCost: type === 'GENERATION' ? '0.000125' : null,
    parentObservationId: parent ? `ckobs${parent}` : null,
  })
  await prisma.observation.createMany({
    data: [observation(1, 'cktrace1', null, 'SPAN'), observation(4, 'cktrace2', null, 'EVENT')],
  })
  await prisma.observation.createMany({ data: [observation(2, 'cktrace1', 1, 'GENERATION')] })
  await prisma.observation.createMany({ data: [observation(3, 'cktrace1', 2, 'EVENT')] })
  await prisma.score.createMany({
    data: [
      {
        id: 'ckscore1',
        name: 'quality',
        value: 0.9,
        traceId: 'cktrace1',
        observationId: 'ckobs2',
        timestamp: day(2),
      },
      { id: 'ckscore2', name: 'quality', value: -1.5, traceId: 'cktrace2', timestamp: day(2) },
      {
        id: 'ckscore3',
        name: 'latency',
        value: 1e-7,
        traceId: 'cktrace1',
        comment: 'fast',
        timestamp: day(2),
      },
    ],
  })
  await prisma.prompt.createMany({
    data: [
      {
        id: 'ckprompt1',
        projectId: 'ckproj1',
        name: 'greet',
        version: 1,
        prompt: 'Hi {{name}}',
        isActive: false,
      },
      {
        id: 'ckprompt2',
        projectId: 'ckproj1',
        name: 'greet',
        version: 2,
        prompt: { system: 'Be brief' },
        isActive: true,
      },
    ],
  })
  await prisma.dataset.createMany({
    data: [{ id: 'ckds1', projectId: 'ckproj1', name: 'golden', description: 'Golden set' }],
  })
  await prisma.datasetItem.createMany({
    data: [
      { id: 'ckdsi1', datasetId: 'ckds1', input: { q: 'a' }, expectedOutput: { a: 1 } },
      { id: 'ckdsi2', datasetId: 'ckds1', input: [1, 2, 3], archived: true },
    ],
  })
  await prisma.environment.createMany({
    data: [
      { id: 'ckenv1', slug: 'prod', type: 'PRODUCTION', apiKey: 'tr_prod_1', projectId: 'ckproj1' },
      { id: 'ckenv2', slug: 'dev', type: 'DEVELOPMENT', apiKey: 'tr_dev_1', projectId: 'ckproj1' },
    ],
  })
  await prisma.environment.createMany({
    data: [
      {
        id: 'ckenv3',
        slug: 'pr-12',
        type: 'PREVIEW',
        apiKey: 'tr_prev_1',
        projectId: 'ckproj1',
        parentEnvironmentId: 'ckenv2',
      },
    ],
  })
  const run = (n: number, environmentId: string, parent: number | null) => ({
    id: `ckrun${n}`,
    number: n,
    friendlyId: `run_${n}`,
    taskIdentifier: n === 1 ? 'send-email' : 'resize-image',
    status: n % 2 ? ('COMPLETED' as const) : ('EXECUTING' as const),
    payload: { n },
    ...(n % 2 ? { output: { ok: true } } : {}),
    costInCents: n * 0.5,
    createdAt: day(2, n),
    completedAt: n % 2 ? day(2, n + 1) : null,
    environmentId,
    parentTaskRunId: parent ? `ckrun${parent}` : null,
  })
  await prisma.taskRun.createMany({ data: [run(1, 'ckenv1', null), run(4, 'ckenv3', null)] })
  await prisma.taskRun.createMany({ data: [run(2, 'ckenv1', 1), run(3, 'ckenv1', 1)] })
  await prisma.secretStore.createMany({
    data: [
      { key: 'env/ckenv1/API_KEY', value: { secret: 'x' }, createdAt: day(1) },
      { key: 'github', value: 'token', version: '2', createdAt: day(2) },
    ],
  })
  await prisma.permission.createMany({
    data: [
      { id: 1, name: 'team:read' },
      { id: 2, name: 'team:delete' },
      { id: 3, name: 'project:read' },
    ],
  })
  await prisma.rolePermission.createMany({
    data: [
      { role: 'OWNER', permissionId: 1 },
      { role: 'OWNER', permissionId: 2 },
      { role: 'ADMIN', permissionId: 1 },
      { role: 'MEMBER', permissionId: 3 },
    ],
  })
  await prisma.website.createMany({
    data: [
      {
        id: 'e0e0e0e0-0000-4000-8000-000000000001',
        name: 'Acme site',
        domain: 'acme.test',
        shareId: 'share1',
        teamId: acme,
        createdAt: day(1),
      },
      {
        id: 'e0e0e0e0-0000-4000-8000-000000000002',
        name: 'Blog',
        createdAt: day(2),
        deletedAt: day(8),
      },
    ],
  })
  const site = 'e0e0e0e0-0000-4000-8000-000000000001'
  await prisma.visitorSession.createMany({
    data: [
      {
        id: 'f0f0f0f0-0000-4000-8000-000000000001',
        websiteId: site,
        browser: 'firefox',
        os: 'linux',
        country: 'FR',
        createdAt: day(3),
      },
      {
        id: 'f0f0f0f0-0000-4000-8000-000000000002',
        websiteId: site,
        browser: 'chrome',
        createdAt: day(4),
      },
    ],
  })
  await prisma.websiteEvent.createMany({
    data: [1, 2, 3, 4, 5].map((n) => ({
      id: `f1f1f1f1-0000-4000-8000-00000000000${n}`,
      websiteId: site,
      sessionId: `f0f0f0f0-0000-4000-8000-00000000000${n <= 3 ? 1 : 2}`,
      createdAt: day(3, n),
      urlPath: n === 5 ? '/pricing?plan=pro' : `/docs/${n}`,
      eventType: n === 4 ? 2 : 1,
      eventName: n === 4 ? 'signup' : null,
    })),
  })
  await prisma.eventData.createMany({
    data: [
      {
        id: 'f2f2f2f2-0000-4000-8000-000000000001',
        websiteEventId: 'f1f1f1f1-0000-4000-8000-000000000004',
        dataKey: 'plan',
        stringValue: 'pro',
        dataType: 1,
      },
      {
        id: 'f2f2f2f2-0000-4000-8000-000000000002',
        websiteEventId: 'f1f1f1f1-0000-4000-8000-000000000004',
        dataKey: 'seats',
        numberValue: '3.50',
        dataType: 2,
      },
      {
        id: 'f2f2f2f2-0000-4000-8000-000000000003',
        websiteEventId: 'f1f1f1f1-0000-4000-8000-000000000004',
        dataKey: 'at',
        dateValue: day(3),
        dataType: 4,
      },
    ],
  })
  await prisma.report.createMany({
    data: [
      {
        id: 'f3f3f3f3-0000-4000-8000-000000000001',
        userId: ann,
        websiteId: site,
        type: 'funnel',
        name: 'Signup funnel',
        parameters: { steps: ['/', '/pricing'] },
        createdAt: day(6),
      },
    ],
  })
}
