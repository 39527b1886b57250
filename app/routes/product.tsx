export default function Page() {
  return <div>product</div>
}
